-- The rule API: `info`, items, targets and the board as host objects.
--
-- Objects are sealed (see sandbox.lua): rules read them and change the board only
-- through their methods. Fields are read from the host's staged board when first asked
-- and kept in the object's `fresh` table, which belongs to the board's current version:
-- the engine moves the version on every change to the board, and before any Lua runs
-- again the host empties every `fresh` table that holds something (trusted.readings), in
-- C. A kept read costs one table hop, a kept object never reads old data, and nothing a
-- rule's budget can stop keeps it honest. One object per id: references
-- (`info.source`, `item.container`, `target.parent`) are the same objects that
-- `info.board:target(id)` and `info.items` give.
local host, trusted = ...
local view, freeze, object = trusted.view, trusted.freeze, trusted.object
local backingOf, thaw, readings = trusted.backing, trusted.thaw, trusted.readings
local fieldReadings = trusted.fieldReadings
local type, error, ipairs, rawget, rawset, tostring, setmetatable, next, mathType =
  type, error, ipairs, rawget, rawset, tostring, setmetatable, next, math.type
local huge = math.huge

local targets = setmetatable({}, { __mode = "v" })
local targetObject, itemObject
-- Each kind's methods by name, and what calling a field does (`Methods`, below).
local methodsOf, fieldCalls
-- The `__index` of item and target objects' backings (`fieldReader`, below).
local readItemField, readTargetField
local items = setmetatable({}, { __mode = "v" })

local function fail(message, level) error(message, level + 1) end

-- Each object's `fresh` table (what it read of the board's current version), by its
-- backing table.
local freshOf = setmetatable({}, { __mode = "k" })

-- A host object whose fields are read through `read` (`fieldReader`).
local function boardObject(backing, what, describe, read)
  local fresh = {}
  freshOf[backing] = fresh
  return object(backing, what, describe, read, fresh)
end

local function checked(value, message)
  if value == nil then error(message, 3) end
  return value
end

-- Raises that the `kind` ("item" or "target") `id` has left the board, at `level` as
-- `error` counts it from the caller: the message is made only when raised.
local function goneFromBoard(kind, id, level)
  error(kind .. " '" .. id .. "' is no longer on the board", level + 1)
end

-- A key of a lazily read data view's store under which the whole data is kept once
-- something walks it.
local wholeData = {}

-- Keeps `value` under `key` of `store`, a table the host empties when the board's data
-- changes: listed in `readings` as it first holds something.
local function remember(store, key, value)
  if next(store) == nil then readings[#readings + 1] = store end
  rawset(store, key, value)
end

-- Raises that a kept data view (`what`) was read before the board changed, at `level`
-- as `error` counts it from the caller.
local function staleRead(what, level)
  error(what:match("^[%w.]+") .. " was read before the board changed; read it again", level + 1)
end

-- A read-only view of a target's or an item's data whose keys are read from the host one
-- at a time, each when first asked: reading `data.locked` costs that key, however large
-- the rest of the data is (another rule file may have made it so). Walking it (`pairs`,
-- `next`) reads it whole. `one(id, key)` gives found, value; `whole(id)` the whole table;
-- either gives nil once the object has left the board (`kind` names it then: "item" or
-- "target"). Like a data table read whole, a kept one is what the data was: once the
-- data changed, what it had not read yet it cannot read any more, and it says so rather
-- than answer from the data of now. Both messages are made only when raised: a rule may
-- read large data on every pointer step.
local function lazyData(id, what, kind, one, whole, call)
  local absent = {}
  -- Emptied by the host when the data changes.
  local current = {}
  remember(current, 1, true)
  local store = setmetatable({}, {
    __index = function(store, key)
      if type(key) ~= "string" or absent[key] then return nil end
      if current[1] == nil then staleRead(what, 2) end
      local found, value = one(id, key)
      if found == nil then goneFromBoard(kind, id, 2) end
      if not found then
        absent[key] = true
        return nil
      end
      if type(value) == "table" then value = freeze(value, what) end
      rawset(store, key, value)
      return value
    end,
  })
  local function walk(walked, key)
    local all = rawget(walked, wholeData)
    if all == nil then
      if current[1] == nil then staleRead(what, 3) end
      all = whole(id)
      if all == nil then goneFromBoard(kind, id, 3) end
      for name, element in next, all do
        if type(element) == "table" then all[name] = freeze(element, what) end
      end
      rawset(walked, wholeData, all)
    end
    return next(all, key)
  end
  return view(store, what, walk, call)
end

-- A method called with a dot (`info.itemProviders(types)`) gets its first argument as
-- the object: say that, rather than complain about the argument. `shown` is how the
-- rule reaches the method (`info:itemProviders`); `depth` counts the api.lua functions
-- between the rule and this one (1: the method itself).
local function checkSelf(value, kind, shown, depth)
  local backing = backingOf(value)
  if backing == nil or rawget(backing, "kind") ~= kind then
    fail("call " .. shown:match("[^:]*$") .. " with a colon: " .. shown .. "(...), not "
      .. shown:gsub(":", ".") .. "(...)", 2 + (depth or 1))
  end
  return backing
end

local function typeList(types, caller)
  if type(types) == "string" then return { types } end
  if type(types) ~= "table" then
    error(caller .. " expects a type identifier or a list of them, got " .. type(types), 3)
  end
  return types
end

local function describeItem(item) return "item " .. backingOf(item).id end

function itemObject(id)
  local existing = items[id]
  if existing ~= nil then return existing end
  local backing = { kind = "item", id = id }
  local item = boardObject(backing, "item " .. id .. " (read-only)", describeItem, readItemField)
  items[id] = item
  return item
end

local function itemList(ids, what)
  local list = {}
  for index, id in ipairs(ids) do list[index] = itemObject(id) end
  return view(list, what)
end

-- Whether every string in `value` (keys too) is UTF-8: data is JSON text, and the host
-- would otherwise replace what is not with U+FFFD, silently. Each table is visited once.
local utf8len = utf8.len
-- `seen` (the tables already walked) is made when the first table is: a key or a plain
-- value, what a rule sets on every pointer step, allocates nothing.
local function isText(value, seen)
  if type(value) == "string" then return utf8len(value) ~= nil end
  if type(value) ~= "table" then return true end
  if seen == nil then
    seen = {}
  elseif seen[value] then
    return true
  end
  seen[value] = true
  for key, element in next, value do
    if not isText(key, seen) or not isText(element, seen) then return false end
  end
  return true
end

-- Whether a table is reachable from itself (a cycle): JSON cannot hold it. A table met
-- twice on different paths is fine; it is written twice. Each table is walked once
-- (`done`), so a table shared by many paths costs one walk, not one per path.
local function containsItself(value, onPath, done)
  if type(value) ~= "table" or done[value] then return false end
  if onPath[value] then return true end
  onPath[value] = true
  for _, element in next, value do
    if containsItself(element, onPath, done) then return true end
  end
  onPath[value] = nil
  done[value] = true
  return false
end

-- Methods ----------------------------------------------------------------------------

-- Every method of an object is declared once, in Swift (ItemMethods, TargetMethods,
-- BoardMethods, InfoMethods): its name, the check its arguments get here, the shape of
-- its result and its host function. Nothing here names a method. A method named like a
-- field of its kind is what calling that field does (`item:data(type)`).

-- How a method shows in its errors: `target:insert`, `info.board:target`.
local shownAs = { item = "item", target = "target", board = "info.board", info = "info" }

-- Raises `message` at the rule's line: above this function are the check, the method,
-- then the rule (and `deeper` more functions of the check's own).
local function refuse(message, deeper) error(message, 4 + (deeper or 0)) end

local function itemIDOf(caller, value, deeper)
  local backing = backingOf(value)
  if backing == nil or backing.kind ~= "item" then
    local got = backing ~= nil and tostring(value) or type(value)
    refuse(caller .. " expects an item (from info.items, target.items or item:copy()), got " .. got, deeper)
  end
  return backing.id
end

-- What each method's argument check (HostMethod.Arguments) makes of a rule's values for
-- the host. One call per method call: the rule pays for every instruction here.
local checks = {}

function checks.types(caller, value)
  if type(value) == "string" then return { value } end
  if type(value) ~= "table" then
    refuse(caller .. " expects a type identifier or a list of them, got " .. type(value))
  end
  return value
end

function checks.typeID(caller, value)
  if type(value) ~= "string" then refuse(caller .. " expects a type identifier, got " .. type(value)) end
  return value
end

checks.item = itemIDOf

-- One item, or a list of them (a plain table, or a read-only list such as info.items),
-- and the gap to insert at.
function checks.itemsAndIndex(caller, value, index)
  local ids
  local backing = backingOf(value)
  if backing ~= nil and backing.kind == "item" then
    ids = { backing.id }
  elseif type(value) == "table" and (backing == nil or backing.kind == nil) then
    ids = {}
    for position, each in ipairs(value) do ids[position] = itemIDOf(caller, each, 1) end
  else
    itemIDOf(caller, value, 1)
  end
  if index ~= nil then
    if mathType(index) == nil then refuse(caller .. ": index must be a number or nil, got " .. type(index)) end
    if index ~= index or index == huge or index == -huge then
      refuse(caller .. ": index must be a finite number, got " .. tostring(index))
    end
  end
  return ids, index
end

-- Data is JSON text: the host would otherwise replace what is not UTF-8 with U+FFFD,
-- silently.
function checks.keyAndValue(caller, key, value)
  if type(key) ~= "string" then refuse(caller .. " expects a string key, got " .. type(key)) end
  value = thaw(value)
  if not isText(key) or not isText(value) then
    refuse(caller .. ": '" .. (utf8len(key) and key or "?") .. "' holds text that is not valid UTF-8; "
      .. "data is JSON text (keep bytes in a representation, or encode them)")
  end
  return key, value
end

function checks.id(_, value) return value end

-- What a method gives the rule of what the host returned (HostMethod.ResultShape),
-- raising the host's refusal (`nil, message`) first. Tail-called by the method, so level
-- 2 is the rule's line.
local finishes = {
  none = function(value, message)
    if value == nil and message ~= nil then error(message, 2) end
  end,
  value = function(value, message)
    if value == nil and message ~= nil then error(message, 2) end
    return value
  end,
  item = function(id, message)
    if id == nil and message ~= nil then error(message, 2) end
    return id and itemObject(id)
  end,
  target = function(id, message)
    if id == nil and message ~= nil then error(message, 2) end
    return id and targetObject(id)
  end,
  itemList = function(ids, message)
    if ids == nil and message ~= nil then error(message, 2) end
    local list = {}
    for index, id in ipairs(ids) do list[index] = itemObject(id) end
    return list
  end,
}

-- A method: checks it is called with a colon on an object of its kind, checks its
-- arguments, calls `run` (the host) with the object's id and them, and shapes what it
-- returns. A lookup (no `run`) is answered by its shape alone, given the id as it is.
local function makeMethod(kind, name, argumentsCheck, shape, run)
  local shown = shownAs[kind] .. ":" .. name
  local check, finish = checks[argumentsCheck], finishes[shape]
  if not run then
    return function(self, id)
      checkSelf(self, kind, shown)
      return finish(id)
    end
  elseif check == nil then
    return function(self) return finish(run(rawget(checkSelf(self, kind, shown), "id"))) end
  end
  return function(self, a, b)
    local id = rawget(checkSelf(self, kind, shown), "id")
    return finish(run(id, check(shown, a, b)))
  end
end

-- Each kind's methods by name; those named like a field of the kind are in `fieldCalls`.
methodsOf, fieldCalls = {}, {}
for _, kind in ipairs({ "item", "target", "board", "info" }) do
  local names, argumentsChecks, shapes, calledAsField, runs = host.methodsOf(kind)
  local methods, calls = {}, {}
  for place, name in ipairs(names) do
    local made = makeMethod(kind, name, argumentsChecks[place], shapes[place], runs[place])
    if calledAsField[place] == "field" then calls[name] = made else methods[name] = made end
  end
  methodsOf[kind], fieldCalls[kind] = methods, calls
end

local function describeTarget(target) return "target " .. backingOf(target).id end

function targetObject(id)
  local existing = targets[id]
  if existing ~= nil then return existing end
  if not host.targetExists(id) then return nil end
  local backing = { kind = "target", id = id }
  local target = boardObject(backing, "target " .. id .. " (read-only)", describeTarget, readTargetField)
  targets[id] = target
  return target
end

-- Fields -----------------------------------------------------------------------------

-- Every field an object reads from the host is declared once, in Swift (TargetFields,
-- ItemFields, InfoFields): its name, its shape (how its value becomes what a rule reads)
-- and how its read-only views name it. Nothing here names a field.

-- A key `next` never gives, under which this file keeps its bookkeeping: in an object's
-- `fresh` table (emptied with it), the fields read as nil, so that reading a nil one (a
-- root target's parent) asks the host once; in the call readings and info's backing,
-- that the fields of one host call were all read.
local complete = trusted.hidden

local function set(list, what)
  local members = {}
  for _, name in ipairs(list) do members[name] = true end
  return view(members, what)
end

-- The views of data fields a rule may also call, by kind and name: `item:data(type)`.
local dataCalls = { item = { data = function(_, item, typeID) return fieldCalls.item.data(item, typeID) end } }

-- Small data (the usual: a few keys) is given whole, so that reading a key it lacks is
-- one table lookup; large data, which another file may have made so, is `false`, and
-- read a key at a time.
local function dataField(value, what, kind, id, place, readData)
  local call = dataCalls[kind] and dataCalls[kind].data
  if value then
    for key, element in next, value do
      if type(element) == "table" then value[key] = freeze(element, what) end
    end
    return view(value, what, nil, call)
  end
  local function one(_, key) return readData(id, place, key) end
  local function whole() return readData(id, place) end
  return lazyData(id, what, kind, one, whole, call)
end

-- How a field's value from the host becomes what a rule reads (HostField.Shape).
local shapes = {
  value = function(value) return value end,
  table = function(value, what) return freeze(value, what) end,
  item = function(id) return id and itemObject(id) end,
  target = function(id) return id and targetObject(id) end,
  items = function(ids, what) return ids and itemList(ids, what) end,
  names = function(names, what) return set(names, what) end,
  data = dataField,
}

-- The fields `host.fieldsOf(kind)` declares: by name, their place in the host's list, the
-- function that shapes them and what their views are called.
local function declaredFields(kind)
  local names, shapeNames, whats = host.fieldsOf(kind)
  local place, shape, what = {}, {}, {}
  for position, name in ipairs(names) do
    place[name], shape[name], what[name] = position, shapes[shapeNames[position]], whats[position]
  end
  return { names = names, place = place, shape = shape, what = what }
end

-- The `__index` of objects' backings, reached when a field is in neither `fresh` nor the
-- backing: reads a declared field of the host (`read(id, place)` gives true and the value,
-- or nothing once the object left the board) and keeps it in `fresh`, listed in
-- `readings` first, so nothing is kept that the host would not empty. A key that names no
-- field is a method of the kind, or nil: an object takes a method into its backing when
-- first called, so making one copies nothing and a kept one finds it in one hop.
local function fieldReader(kind, fields, read, readData)
  local place, shape, what, methods = fields.place, fields.shape, fields.what, methodsOf[kind]
  return function(backing, key)
    local position = place[key]
    if position == nil then
      local method = methods[key]
      if method ~= nil then rawset(backing, key, method) end
      return method
    end
    local fresh = freshOf[backing]
    local readNil = rawget(fresh, complete)
    if readNil ~= nil and readNil[key] then return nil end
    if next(fresh) == nil then readings[#readings + 1] = fresh end
    local id = rawget(backing, "id")
    local present, value = read(id, position)
    if not present then goneFromBoard(kind, id, 2) end
    value = shape[key](value, what[key], kind, id, position, readData)
    if value == nil then
      if readNil == nil then
        readNil = {}
        fresh[complete] = readNil
      end
      readNil[key] = true
    else
      fresh[key] = value
    end
    return value
  end
end

local itemFields, targetFields = declaredFields("item"), declaredFields("target")
readItemField = fieldReader("item", itemFields, host.itemField, host.itemData)
readTargetField = fieldReader("target", targetFields, host.targetField, host.targetData)

-- The board and info --------------------------------------------------------------

local boardBacking = { kind = "board" }
for name, method in next, methodsOf.board do boardBacking[name] = method end
local board = object(boardBacking, "info.board (read-only)", function() return "board" end)

local function endedDrag()
  error("this info belongs to a drag that has ended; use the info your handler is given", 2)
end

local api = { board = board }

-- What info holds of the drag. Its items and source are fixed when the drag begins:
-- the host reads them when it makes the info, as its own work. Its fields of the call
-- (InfoFields.call: the index, the operation, the item under the pointer...) are read
-- from the host, all in one call, at the first read in a call, into `callReadings`,
-- which the host empties as every call begins (in C): no field can show another call's
-- value, and nothing has to remember to refresh it. The host writes only the two points
-- in place. Its fields of the drag (InfoFields.drag: modifiers, allowed operations, the
-- items another app took) can change during it: read all together when asked and kept
-- in the info's backing itself. They belong to the engine's version like board fields
-- do, and the host forgets them alone (trusted.fieldReadings).
local callFields, dragFields = declaredFields("call"), declaredFields("drag")
local callReadings = {}

-- Shapes each value of `values` (by place) into `into`, under the field's name.
local function keepAll(fields, values, into)
  local shape, what = fields.shape, fields.what
  for position, name in ipairs(fields.names) do
    local value = values[position]
    if value ~= nil then into[name] = shape[name](value, what[name], "info") end
  end
  into[complete] = true
end

-- Which of the two a field of info is: one lookup, since a rule may read a field info
-- lacks (a nil `source`) on every step.
local CALL, DRAG = 1, 2
local infoFieldGroup = {}
for _, name in ipairs(callFields.names) do infoFieldGroup[name] = CALL end
for _, name in ipairs(dragFields.names) do infoFieldGroup[name] = DRAG end

local function infoReader(listing)
  return function(backing, key)
    local group = infoFieldGroup[key]
    if group == nil then return nil end
    if group == CALL then
      if callReadings[complete] == nil then keepAll(callFields, { host.callFields() }, callReadings) end
      return callReadings[key]
    end
    if rawget(backing, complete) then return nil end
    local values = { host.dragFields() }
    checked(values[1], "this info belongs to a drag that has ended; use the info your handler is given")
    fieldReadings[#fieldReadings + 1] = listing
    keepAll(dragFields, values, backing)
    -- Raw: a nil field would reach this reader again.
    return rawget(backing, key)
  end
end

-- The host writes a point's `x` and `y` on every call; `[1]` and `[2]` (and `#`, 2) are
-- read from them, so that a pointer step writes two fields per point, not four. `next`
-- and `pairs` give all four, in the order x, y, 1, 2.
local pointAliases = { "x", "y" }
local pointMetatable = {
  __index = function(point, key)
    local alias = pointAliases[key]
    if alias ~= nil then return rawget(point, alias) end
    return nil
  end,
  __len = function() return 2 end,
}
local pointKeyAfter = { x = "y", y = 1, [1] = 2 }
local function pointNext(point, key)
  local following
  if key == nil then following = "x" else following = pointKeyAfter[key] end
  if following == nil then return nil end
  return following, point[following]
end

--- A new info object for a drag, with the tables the host updates in place.
function api.newInfo()
  local itemIDs, source = host.dragItems()
  checked(itemIDs, "droprules could not make the info of a drag that is not in progress")
  local location = setmetatable({ x = 0, y = 0 }, pointMetatable)
  local globalLocation = setmetatable({ x = 0, y = 0 }, pointMetatable)
  local backing = {
    kind = "info",
    board = board,
    -- Made here, as the host's work: a large drag makes an object per item, which no
    -- rule's budget should pay for.
    items = itemList(itemIDs, "info.items (read-only)"),
    source = source and targetObject(source),
    location = view(location, "info.location (read-only)", pointNext),
    globalLocation = view(globalLocation, "info.globalLocation (read-only)", pointNext),
  }
  for name, method in next, methodsOf.info do backing[name] = method end
  local listing = { backing, complete }
  for _, name in ipairs(dragFields.names) do listing[#listing + 1] = name end
  setmetatable(backing, { __index = infoReader(listing) })
  local info = object(backing, "info (read-only)", function() return "info" end)
  return info, backing, location, globalLocation
end

--- The operation names a `dragOperations` answer gives: a list such as `{ "copy" }`, a
--- set such as `info.allowedOperations`, or one name. Nil for anything else.
function api.operationNames(value)
  value = thaw(value)
  if type(value) == "string" then return { value } end
  if type(value) ~= "table" then return nil end
  local names = {}
  for key, element in next, value do
    if mathType(key) == "integer" and type(element) == "string" then
      names[#names + 1] = element
    elseif type(key) == "string" and element == true then
      names[#names + 1] = key
    else
      return nil
    end
  end
  return names
end

--- The metatable of an ended drag's info: the host empties the info's backing table and
--- gives it this (without running Lua, so it cannot fail), and a rule that kept the info
--- gets an error, not stale data.
local endedDragMetatable = { __index = endedDrag, __len = endedDrag }
function api.endedDragMetatable() return endedDragMetatable end

--- The table of what info read of the running call, which the host empties as every
--- call begins.
function api.callReadings() return callReadings end

--- The object of a target, for the host to pass to handlers.
function api.target(id) return targetObject(id) end

--- The object of an item, for the host to pass to canDrag.
function api.item(id) return itemObject(id) end
-- `dragPreview(items, source)` gets the drag's own list.
function api.itemsOf(info) return backingOf(info).items end

--- A `droprules` table (each environment gets its own copy).
api.droprules = {
  declareType = function(id, options)
    if type(id) ~= "string" then error("droprules.declareType expects a type identifier string", 2) end
    local parents = options and options.conformsTo or {}
    if type(parents) == "string" then parents = { parents } end
    local ok, message = host.declareType(id, parents)
    if not ok then error(message, 2) end
  end,
  conforms = function(typeID, other)
    if type(typeID) ~= "string" then error("droprules.conforms expects a type identifier string", 2) end
    return host.conforms(typeID, typeList(other, "droprules.conforms"))
  end,
  decodeJSON = host.decodeJSON,
  encodeJSON = function(value)
    value = thaw(value)
    if containsItself(value, {}, {}) then
      return nil, "droprules.encodeJSON: the value contains itself, which JSON cannot hold"
    end
    if not isText(value) then
      return nil, "droprules.encodeJSON: the value holds text that is not valid UTF-8, which JSON cannot hold"
    end
    -- What the host refuses on the way (nesting, size, keys equal as text) is an answer,
    -- not an error; a spent budget or memory cap still stops the handler.
    local ok, text, message = pcall(host.encodeJSON, value)
    if not ok then return nil, "droprules.encodeJSON: " .. tostring(text) end
    if text == nil then return nil, message end
    return text
  end,
}

return api
