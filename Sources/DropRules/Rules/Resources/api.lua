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
local type, error, ipairs, rawget, tostring, setmetatable, next, mathType =
  type, error, ipairs, rawget, tostring, setmetatable, next, math.type
local huge = math.huge

local targets = setmetatable({}, { __mode = "v" })
local targetObject, itemObject
local items = setmetatable({}, { __mode = "v" })

local function fail(message, level) error(message, level + 1) end

-- Each object's `fresh` table (what it read of the board's current version), by its
-- backing table.
local freshOf = setmetatable({}, { __mode = "k" })

-- The `__index` of objects' backing tables, reached when a field is in neither `fresh`
-- nor the backing: fetches a field in `fields` from the host and keeps it in `fresh`,
-- listed in `readings` first, so nothing is kept that the host would not empty.
local function reader(fields)
  return function(backing, key)
    local fetch = fields[key]
    if fetch == nil then return nil end
    local fresh = freshOf[backing]
    if next(fresh) == nil then readings[#readings + 1] = fresh end
    local value = fetch(rawget(backing, "id"), fresh)
    fresh[key] = value
    return value
  end
end

-- A host object whose fields in `fields` are read through `reader`.
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

-- `checked` for a field fetch of a board object: the message is made only when the
-- object is gone (every field read would otherwise build it). Fetches run under
-- `reader`, the rule's field read: above this function are the fetch, the reader, then
-- the rule, whose line the error names.
local function onBoard(value, kind, id)
  if value == nil then goneFromBoard(kind, id, 4) end
  return value
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

-- Items ----------------------------------------------------------------------------

local Item = {}

local function itemID(item, caller)
  local backing = backingOf(item)
  if backing == nil or backing.kind ~= "item" then
    local got = backing ~= nil and tostring(item) or type(item)
    fail(caller .. " expects an item (from info.items, target.items or item:copy()), got " .. got, 3)
  end
  return backing.id
end

function Item.conformsTo(item, typeID)
  local id = checkSelf(item, "item", "item:conformsTo").id
  return host.itemConforms(id, typeList(typeID, "item:conformsTo"))
end

function Item.data(item, typeID)
  local id = checkSelf(item, "item", "item:data").id
  if type(typeID) ~= "string" then fail("item:data expects a type identifier, got " .. type(typeID), 2) end
  return host.itemData(id, typeID)
end

function Item.copy(item)
  local id, message = host.copyItem(checkSelf(item, "item", "item:copy").id)
  if id == nil then fail(message, 2) end
  return itemObject(id)
end

-- Fields read from the host when asked, by name. A table, not a chain of ifs, so the host
-- can list them (`api.fetchedFields`) and a test can hold the API description to them.
local itemFields = {}

-- `item.data` is the item's own JSON data, read-only; calling it is the method
-- `item:data(type)`, a representation's payload, as a tail call, so that its errors
-- name the rule's line.
local itemDataWhat = "item.data (read-only: change it with item:set)"
local function payloadOf(_, item, typeID) return Item.data(item, typeID) end

-- Small data (the usual: a few keys) is read whole, so that reading a key it lacks is
-- one table lookup; large data, which another file may have made so, a key at a time.
function itemFields.data(id)
  local small = onBoard(host.itemJSON(id, true), "item", id)
  if small then
    for key, element in next, small do
      if type(element) == "table" then small[key] = freeze(element, itemDataWhat) end
    end
    return view(small, itemDataWhat, nil, payloadOf)
  end
  return lazyData(id, itemDataWhat, "item", host.itemDataValue, host.itemJSON, payloadOf)
end

function itemFields.name(id)
  return onBoard(host.itemInfo(id), "item", id) or nil
end

function itemFields.types(id)
  local _, types = host.itemInfo(id)
  return freeze(onBoard(types, "item", id), "item.types")
end

-- The target the item stands for (a folder's row opens the folder's target), or nil.
function itemFields.opens(id)
  local name, _, opens = host.itemInfo(id)
  onBoard(name, "item", id)
  return opens and targetObject(opens)
end

function itemFields.container(id)
  local container = host.itemPlace(id)
  return container and targetObject(container)
end

function itemFields.index(id)
  local _, index = host.itemPlace(id)
  return index
end

local readItemField = reader(itemFields)

local function describeItem(item) return "item " .. backingOf(item).id end

function itemObject(id)
  local existing = items[id]
  if existing ~= nil then return existing end
  local backing = { kind = "item", id = id, conformsTo = Item.conformsTo, set = Item.set, copy = Item.copy }
  local item = boardObject(backing, "item " .. id .. " (read-only)", describeItem, readItemField)
  items[id] = item
  return item
end

local function itemList(ids, what)
  local list = {}
  for index, id in ipairs(ids) do list[index] = itemObject(id) end
  return view(list, what)
end

-- Targets --------------------------------------------------------------------------

local Target = {}

local function targetID(target, caller)
  local backing = backingOf(target)
  if backing == nil or backing.kind ~= "target" then checkSelf(target, "target", caller, 2) end
  return backing.id
end

local function change(ok, message)
  if ok == nil then fail(message, 3) end
end

local function finiteIndex(index, caller)
  if index == nil then return nil end
  if mathType(index) == nil then fail(caller .. ": index must be a number or nil, got " .. type(index), 3) end
  if index ~= index or index == huge or index == -huge then
    fail(caller .. ": index must be a finite number, got " .. tostring(index), 3)
  end
  return index
end

-- `item` may be a list of items: they go in together, in order, from the gap on.
function Target.insert(target, item, index)
  local id = targetID(target, "target:insert")
  index = finiteIndex(index, "target:insert")
  local ids = {}
  local backing = backingOf(item)
  if backing ~= nil and backing.kind == "item" then
    ids[1] = backing.id
  elseif type(item) == "table" and (backing == nil or backing.kind == nil) then
    -- A list of items: a plain table, or a read-only list such as info.items.
    for position, each in ipairs(item) do ids[position] = itemID(each, "target:insert") end
  else
    itemID(item, "target:insert")
  end
  change(host.insert(id, ids, index))
end

function Target.remove(target, item)
  change(host.remove(targetID(target, "target:remove"), itemID(item, "target:remove")))
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

function Target.set(target, key, value)
  local id = targetID(target, "target:set")
  if type(key) ~= "string" then fail("target:set expects a string key, got " .. type(key), 2) end
  value = thaw(value)
  if not isText(key) or not isText(value) then
    fail("target:set: '" .. (utf8len(key) and key or "?") .. "' holds text that is not valid UTF-8; "
      .. "data is JSON text (keep bytes in a representation, or encode them)", 2)
  end
  change(host.setData(id, key, value))
end

-- Like set, but for this drag only: every handler of the drag reads it in target.data,
-- and it is gone when the drag ends, performed or not (hover highlights, placeholders).
function Target.setForDrag(target, key, value)
  local id = targetID(target, "target:setForDrag")
  if type(key) ~= "string" then fail("target:setForDrag expects a string key, got " .. type(key), 2) end
  value = thaw(value)
  if not isText(key) or not isText(value) then
    fail("target:setForDrag: '" .. (utf8len(key) and key or "?") .. "' holds text that is not valid UTF-8; "
      .. "data is JSON text (keep bytes in a representation, or encode them)", 2)
  end
  change(host.setForDrag(id, key, value))
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

-- Changes one key of the item's own data, staged like target data.
function Item.set(item, key, value)
  local id = checkSelf(item, "item", "item:set").id
  if type(key) ~= "string" then fail("item:set expects a string key, got " .. type(key), 2) end
  value = thaw(value)
  if not isText(key) or not isText(value) then
    fail("item:set: '" .. (utf8len(key) and key or "?") .. "' holds text that is not valid UTF-8; "
      .. "data is JSON text (keep bytes in a representation, or encode them)", 2)
  end
  change(host.setItemData(id, key, value))
end

local targetFields = {}

-- A key in a `fresh` table or a backing (never given by `next`): the fields one host
-- call gives were all read, those that are nil too, so that reading a nil one (a root
-- target's parent) does not ask the host again.
local complete = trusted.hidden

-- One host call gives all three; the reader keeps the one asked for, and this keeps the
-- other two in the same readings.
local function fetchPlacement(id, read, key)
  if rawget(read, complete) then return nil end
  local targetType, frame, parent, collapsed = host.targetInfo(id)
  onBoard(targetType, "target", id)
  read.type = targetType
  read.collapsed = collapsed
  read.frame = freeze(frame, "target.frame (read-only)")
  if parent ~= nil then read.parent = targetObject(parent) end
  -- Last: if making a field raised (memory), the next read asks again.
  read[complete] = true
  -- Raw: `read` falls back to the object's backing and its reader, which would fetch a
  -- nil parent again, forever.
  return rawget(read, key)
end

function targetFields.type(id, read) return fetchPlacement(id, read, "type") end
function targetFields.frame(id, read) return fetchPlacement(id, read, "frame") end
function targetFields.parent(id, read) return fetchPlacement(id, read, "parent") end
function targetFields.collapsed(id, read) return fetchPlacement(id, read, "collapsed") end

function targetFields.data(id)
  local what = "target.data (read-only: change it with target:set)"
  local small = onBoard(host.targetData(id, true), "target", id)
  if small then return freeze(small, what) end
  return lazyData(id, what, "target", host.targetDataValue, host.targetData)
end

function targetFields.items(id)
  local ids = onBoard(host.targetItems(id), "target", id)
  return itemList(ids, "target.items (read-only: change it with target:insert and target:remove)")
end

local readTargetField = reader(targetFields)

local function describeTarget(target) return "target " .. backingOf(target).id end

function targetObject(id)
  local existing = targets[id]
  if existing ~= nil then return existing end
  if not host.targetExists(id) then return nil end
  local backing = {
    kind = "target", id = id, insert = Target.insert, remove = Target.remove, set = Target.set,
    setForDrag = Target.setForDrag,
  }
  local target = boardObject(backing, "target " .. id .. " (read-only)", describeTarget, readTargetField)
  targets[id] = target
  return target
end

-- The board and info --------------------------------------------------------------

local board = object({
  kind = "board",
  target = function(self, id)
    checkSelf(self, "board", "info.board:target")
    return targetObject(id)
  end,
  item = function(self, id)
    checkSelf(self, "board", "info.board:item")
    if host.itemExists(id) then return itemObject(id) end
    return nil
  end,
}, "info.board (read-only)", function() return "board" end)

local function set(list, what)
  local members = {}
  for _, name in ipairs(list) do members[name] = true end
  return view(members, what)
end

local function hasItemsConforming(info, types)
  checkSelf(info, "info", "info:hasItemsConforming")
  return host.anyItemConforms(typeList(types, "info:hasItemsConforming"))
end

local function itemProviders(info, types)
  checkSelf(info, "info", "info:itemProviders")
  local list = {}
  for index, id in ipairs(host.itemsConforming(typeList(types, "info:itemProviders"))) do
    list[index] = itemObject(id)
  end
  return list
end

local function endedDrag()
  error("this info belongs to a drag that has ended; use the info your handler is given", 2)
end

local api = { board = board }

-- What info holds of the drag. Its items and source are fixed when the drag begins:
-- the host reads them when it makes the info, as its own work. What belongs to the call
-- the info is given to (`callFields`: the index, the operation, the item under the
-- pointer...) is read from the host, all of it in one call, at the first read in a call,
-- into `callReadings`, which the host empties as every call begins (in C): no field can
-- show another call's value, and nothing has to remember to refresh it. The host writes
-- only the two points in place. The rest (modifiers, allowed operations, the items
-- another app took) can change during a drag: read from the host when asked, all three
-- in one call, and kept in the info's backing itself. They belong to the engine's
-- version like board fields do, and the host forgets them alone (trusted.fieldReadings).
-- Their names and kinds ("value", or "item" or "target" for an object named by its id)
-- are the host's (RuleFileState.callFieldList), declared there once.
local callFields, callFieldKinds = host.callFieldNames()
local changingFields = { "modifiers", "allowedOperations", "taken" }
local CALL, CHANGING = "call", "changing"
local infoFieldGroup = {}
for _, name in ipairs(callFields) do infoFieldGroup[name] = CALL end
for _, name in ipairs(changingFields) do infoFieldGroup[name] = CHANGING end
local callReadings = {}

local function readCall()
  local values = { host.callFields() }
  for position, name in ipairs(callFields) do
    local value, kind = values[position], callFieldKinds[position]
    if value ~= nil and kind == "item" then
      value = itemObject(value)
    elseif value ~= nil and kind == "target" then
      value = targetObject(value)
    end
    callReadings[name] = value
  end
  callReadings[complete] = true
end

local function infoReader(listing)
  return function(backing, key)
    local group = infoFieldGroup[key]
    if group == nil then return nil end
    if group == CALL then
      if callReadings[complete] == nil then readCall() end
      return callReadings[key]
    end
    if rawget(backing, complete) then return nil end
    local modifiers, allowed, taken = host.dragState()
    checked(modifiers, "this info belongs to a drag that has ended; use the info your handler is given")
    fieldReadings[#fieldReadings + 1] = listing
    backing.modifiers = set(modifiers, "info.modifiers (read-only)")
    backing.allowedOperations = set(allowed, "info.allowedOperations (read-only)")
    if taken ~= nil then backing.taken = itemList(taken, "info.taken (read-only)") end
    backing[complete] = true
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
    hasItemsConforming = hasItemsConforming,
    itemProviders = itemProviders,
  }
  local listing = { backing, complete }
  for _, name in ipairs(changingFields) do listing[#listing + 1] = name end
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

--- The names of the fields objects read from the host when asked (`item = {...}`,
--- `target = {...}`, `info = {...}`): with what `next` walks in an object, everything it exposes.
function api.fetchedFields()
  local names = { item = {}, target = {}, info = {} }
  for name in next, itemFields do names.item[#names.item + 1] = name end
  for name in next, targetFields do names.target[#names.target + 1] = name end
  for _, name in ipairs(changingFields) do names.info[#names.info + 1] = name end
  for _, name in ipairs(callFields) do names.info[#names.info + 1] = name end
  return names
end

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
