/// The Lua side of the rule API: `info`, `item`, `target`, `info.board` and the
/// `droprules` global, as thin proxies over host functions.
///
/// Proxies are made once per id and keep their identity (`item == info.items[1]`). What
/// can change during a drag (data, item lists, an item's place) is cached until the
/// board changes: the host passes its board generation with every call, so per-step
/// work stays proportional to what the rule reads, never to the size of the board.
enum RuleAPISource {
  static let chunkName = "=[droprules api]"

  static let source = #"""
    local host = ...
    local setmetatable, getmetatable, rawget, type, error, next, ipairs, tostring =
      setmetatable, getmetatable, rawget, type, error, next, ipairs, tostring

    local generation = -1
    local targetCache, itemCache = {}, {}
    local targetProxies, itemProxies = {}, setmetatable({}, { __mode = "v" })
    local drag = {}

    local function invalidate()
      targetCache, itemCache = {}, {}
    end

    local function readonly(value, what)
      if type(value) ~= "table" or getmetatable(value) ~= nil then return value end
      local wrapped = {}
      local function wrap(element)
        if type(element) ~= "table" or getmetatable(element) ~= nil then return element end
        local proxy = wrapped[element]
        if proxy == nil then
          proxy = readonly(element, what)
          wrapped[element] = proxy
        end
        return proxy
      end
      return setmetatable({}, {
        __index = function(_, key) return wrap(value[key]) end,
        __newindex = function() error(what .. " is read-only", 2) end,
        __len = function() return #value end,
        __pairs = function()
          return function(_, key)
            local nextKey, nextValue = next(value, key)
            return nextKey, wrap(nextValue)
          end, nil, nil
        end,
      })
    end

    local function set(list)
      local result = {}
      for _, name in ipairs(list) do result[name] = true end
      return readonly(result, "this set")
    end

    local function typeList(types, caller)
      if type(types) == "string" then return { types } end
      if type(types) ~= "table" then
        error(caller .. " expects a type identifier or a list of them", 3)
      end
      return types
    end

    local Item, itemMeta = {}, { __name = "droprules.item" }
    local Target, targetMeta = {}, { __name = "droprules.target" }
    local Board, boardMeta = {}, { __name = "droprules.board" }
    local Info, infoMeta = {}, { __name = "droprules.info" }
    local board = setmetatable({}, boardMeta)

    local function itemProxy(id)
      if id == nil then return nil end
      local proxy = itemProxies[id]
      if proxy == nil then
        proxy = setmetatable({ id = id }, itemMeta)
        itemProxies[id] = proxy
      end
      return proxy
    end

    local function targetProxy(id)
      if id == nil then return nil end
      local proxy = targetProxies[id]
      if proxy == nil then
        local targetType, frame, parent = host.targetInfo(id)
        if targetType == nil then return nil end
        proxy = setmetatable({
          id = id, type = targetType, parentID = parent,
          frame = readonly(frame, "target.frame"),
        }, targetMeta)
        targetProxies[id] = proxy
      end
      return proxy
    end

    local function proxies(ids)
      local list = {}
      for index, id in ipairs(ids) do list[index] = itemProxy(id) end
      return list
    end

    local function cached(cache, id, field, fetch)
      local entry = cache[id]
      if entry == nil then
        entry = {}
        cache[id] = entry
      end
      local value = entry[field]
      if value == nil then
        value = fetch(id)
        entry[field] = value
      end
      return value
    end

    local itemFields = {
      name = function(id) return (host.itemInfo(id)) or false end,
      types = function(id)
        local _, types = host.itemInfo(id)
        return readonly(types or {}, "item.types")
      end,
      container = function(id) return (host.itemPlace(id)) or false end,
      index = function(id)
        local _, index = host.itemPlace(id)
        return index or false
      end,
    }

    itemMeta.__index = function(proxy, key)
      local method = Item[key]
      if method ~= nil then return method end
      local fetch = itemFields[key]
      if fetch == nil then return nil end
      local value = cached(itemCache, rawget(proxy, "id"), key, fetch)
      if value == false then return nil end
      if key == "container" then return targetProxy(value) end
      return value
    end
    itemMeta.__tostring = function(proxy) return "item " .. rawget(proxy, "id") end

    function Item.conformsTo(item, typeID)
      return host.itemConforms(rawget(item, "id"), typeList(typeID, "item:conformsTo"))
    end

    function Item.data(item, typeID)
      return host.itemData(rawget(item, "id"), typeID)
    end

    function Item.copy(item)
      local id, message = host.copyItem(rawget(item, "id"))
      if id == nil then error(message, 2) end
      invalidate()
      return itemProxy(id)
    end

    local targetFields = {
      data = function(id) return readonly(host.targetData(id), "target.data (use target:set)") end,
      items = function(id) return readonly(proxies(host.targetItems(id)), "target.items (use target:insert)") end,
    }

    targetMeta.__index = function(proxy, key)
      local method = Target[key]
      if method ~= nil then return method end
      if key == "parent" then return targetProxy(rawget(proxy, "parentID")) end
      local fetch = targetFields[key]
      if fetch == nil then return nil end
      return cached(targetCache, rawget(proxy, "id"), key, fetch)
    end
    targetMeta.__tostring = function(proxy) return "target " .. rawget(proxy, "id") end

    local function itemID(item, caller)
      if getmetatable(item) ~= itemMeta then
        error(caller .. " expects an item (from info.items, target.items or item:copy()), got "
          .. type(item), 3)
      end
      return rawget(item, "id")
    end

    local function change(ok, message)
      invalidate()
      if not ok then error(message, 3) end
    end

    -- `item` may be a list of items: they go in together, in order, from the gap on.
    function Target.insert(target, item, index)
      if index ~= nil and math.type(index) == nil then
        error("target:insert: index must be a number or nil, got " .. type(index), 2)
      end
      local ids = {}
      if getmetatable(item) == itemMeta then
        ids[1] = rawget(item, "id")
      elseif type(item) == "table" then
        for position, each in ipairs(item) do ids[position] = itemID(each, "target:insert") end
      else
        itemID(item, "target:insert")
      end
      change(host.insert(rawget(target, "id"), ids, index))
    end

    function Target.remove(target, item)
      change(host.remove(rawget(target, "id"), itemID(item, "target:remove")))
    end

    function Target.set(target, key, value)
      if type(key) ~= "string" then error("target:set expects a string key", 2) end
      change(host.setData(rawget(target, "id"), key, value))
    end

    boardMeta.__index = Board
    function Board.target(_, id) return targetProxy(id) end
    function Board.item(_, id)
      if host.itemExists(id) then return itemProxy(id) end
      return nil
    end

    infoMeta.__index = function(_, key)
      local method = Info[key]
      if method ~= nil then return method end
      if key == "board" then return board end
      return drag[key]
    end

    function Info.hasItemsConforming(_, types)
      return host.anyItemConforms(typeList(types, "info:hasItemsConforming"))
    end

    function Info.itemProviders(_, types)
      return proxies(host.itemsConforming(typeList(types, "info:itemProviders")))
    end

    local api = {}

    function api.beginDrag(itemIDs, modifiers, allowed, source)
      drag = {
        items = readonly(proxies(itemIDs), "info.items"),
        modifiers = set(modifiers),
        allowedOperations = set(allowed),
        source = source,
      }
    end

    function api.setModifiers(modifiers)
      drag.modifiers = set(modifiers)
    end

    function api.dispatch(handler, targetID, boardGeneration, x, y, globalX, globalY, index, operation, outcome)
      if boardGeneration ~= generation then
        invalidate()
        generation = boardGeneration
      end
      local info = setmetatable({
        location = { x = x, y = y, x, y },
        globalLocation = { x = globalX, y = globalY, globalX, globalY },
        index = index, operation = operation, outcome = outcome,
      }, infoMeta)
      return handler(info, targetProxy(targetID))
    end

    api.droprules = {
      declareType = function(id, options)
        if type(id) ~= "string" then error("droprules.declareType expects a type identifier string", 2) end
        local parents = options and options.conformsTo or {}
        if type(parents) == "string" then parents = { parents } end
        local ok, message = host.declareType(id, parents)
        if not ok then error(message, 2) end
      end,
      conforms = function(typeID, other)
        return host.conforms(typeID, other)
      end,
      decodeJSON = host.decodeJSON,
    }

    return api
    """#
}
