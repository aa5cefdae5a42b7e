/// The trusted Lua code that builds the sandbox every rule, module and test file runs in.
///
/// It runs once per runtime with the full standard library, keeps private references
/// to what it needs and hands out environments that see only the safe subset the
/// contract lists. `string.dump` is then removed from the shared string table, because
/// `getmetatable("").__index` reaches it from any environment.
enum LuaSandboxSource {
  static let chunkName = "=[droprules sandbox]"

  static let source = #"""
    local host = ...
    local realLoad, realSetmetatable, realCollect = load, setmetatable, collectgarbage
    local rawget, type, error, pairs, tostring, select = rawget, type, error, pairs, tostring, select
    local concat = table.concat
    local dump = string.dump

    local function copy(library, except)
      local result = {}
      for name, value in pairs(library) do
        if name ~= except then result[name] = value end
      end
      return result
    end

    local loadedModules = {}
    local sandbox = {}

    function sandbox.newEnvironment(extra)
      local env = {
        assert = assert, error = error, ipairs = ipairs, next = next, pairs = pairs,
        pcall = pcall, rawequal = rawequal, rawget = rawget, rawlen = rawlen,
        rawset = rawset, select = select, getmetatable = getmetatable,
        tonumber = tonumber, tostring = tostring, type = type, xpcall = xpcall,
        _VERSION = _VERSION,
        string = copy(string, "dump"), table = copy(table), math = copy(math),
        utf8 = copy(utf8), coroutine = copy(coroutine),
      }
      env._G = env
      function env.setmetatable(object, metatable)
        if type(metatable) == "table" and rawget(metatable, "__gc") ~= nil then
          error("__gc metamethods are not available to rules", 2)
        end
        return realSetmetatable(object, metatable)
      end
      function env.load(chunk, chunkName, _, chunkEnv)
        return realLoad(chunk, chunkName, "t", chunkEnv == nil and env or chunkEnv)
      end
      function env.collectgarbage(option)
        if option ~= "count" then
          error("collectgarbage: only \"count\" is available to rules", 2)
        end
        return realCollect("count")
      end
      function env.print(...)
        local parts = {}
        for index = 1, select("#", ...) do
          parts[index] = tostring((select(index, ...)))
        end
        host.print(concat(parts, "\t"))
      end
      function env.require(name)
        if type(name) ~= "string" then
          error("require expects a module name string", 2)
        end
        local cached = loadedModules[name]
        if cached ~= nil then return cached.value end
        local source, path = host.readModule(name)
        if source == nil then error(path, 2) end
        local chunk, message = realLoad(source, "@" .. path, "t", sandbox.newEnvironment(extra))
        if chunk == nil then error(message, 0) end
        local value = chunk(name, path)
        if value == nil then value = true end
        loadedModules[name] = { value = value }
        return value
      end
      if extra then
        for name, value in pairs(extra) do env[name] = value end
      end
      return env
    end

    function sandbox.dumpForTesting(source)
      return dump(realLoad(source))
    end

    math.randomseed(host.randomSeed)
    return sandbox
    """#
}
