-- The trusted code that builds the sandbox every rule, module and test file runs in.
--
-- It runs once per runtime with the full standard library, keeps private references
-- to what it needs and hands out environments that see only the safe subset. It also
-- owns sealed values: read-only views and host objects, which no rule can write,
-- re-metatable or reach behind, so that one rule file cannot change what another sees.
local host = ...
-- This file bounds the standard library by replacing its functions in place (W122).
-- luacheck: ignore 122
local realSetmetatable, realCollect, rawMetatable = setmetatable, collectgarbage, debug.getmetatable
local realRawset, realNext = rawset, next
local rawget, type, error, pairs, tostring, select, getmetatable =
  rawget, type, error, pairs, tostring, select, getmetatable
local concat = table.concat

-- Work done inside C functions, where the count hook cannot reach, is paid for here
-- (see docs/limits.md, function by function). The libraries are
-- changed in place, before any environment copies them, and the string table is the
-- one the string metatable indexes, so ("x"):find(...) is bounded too.
local bounded = host.bounded
local maximumPrintedLine = host.maximumPrintedLine
local realFind = bounded.find
local raisedInHook, realXpcall, realSub = bounded.raisedInHook, xpcall, string.sub

-- Each environment's math library is a library of its own, with its own random state,
-- seeded alike so that runs repeat: one file's math.random never moves another's.
local randomSeed = host.randomSeed
local function ownMath()
  local library = bounded.newMath()
  library.randomseed(randomSeed)
  return library
end
for _, name in ipairs({ "find", "match", "gmatch", "gsub", "rep" }) do string[name] = bounded[name] end

-- Each resume counts the coroutine's instructions with its own hook and pays for the
-- few it ran without reaching that hook, so short coroutines are never free.
coroutine.resume = bounded.resume
-- In C, as Lua's own wrap, over the bounded resume.
coroutine.wrap = bounded.wrap
-- As Lua's, but a coroutine a limit stopped keeps its to-be-closed variables unclosed:
-- it died where Lua turns hooks off, so they would run with no limit.
coroutine.close = bounded.close

-- In C: Lua's checks and messages, and the work paid for as it is done (a length a
-- `__len` reports, or an `__index` chain, cannot make a loop the count hook cannot see).
table.move = bounded.move
table.sort = bounded.sort
table.insert = bounded.insert
table.remove = bounded.remove
table.concat = bounded.concat
table.unpack = bounded.unpack
-- Linear in the range of the string they scan, in C: paid for before they run.
utf8.len = bounded.byRange(utf8.len, false)
utf8.codepoint = bounded.byRange(utf8.codepoint, true)
-- Linear in the strings they are given, in C: paid for before they run.
tonumber = bounded.byLength(tonumber) -- luacheck: ignore 121
for _, name in ipairs({ "pack", "unpack", "packsize" }) do string[name] = bounded.byLength(string[name]) end

-- Rules' chunks (load, require) compile in C, paid for, 4 KB at a time with the call's
-- deadline read between pieces: one giant piece cannot compile past it.
local boundedLoad = bounded.load

local function copy(library, except)
  local result = {}
  for name, value in pairs(library) do
    if name ~= except then result[name] = value end
  end
  return result
end

-- sealed value -> the table behind it. Weak keys: a sealed value lives as long as
-- someone holds it.
local sealed = realSetmetatable({}, { __mode = "k" })
-- The sealed values that are views (the others are host objects), each with the `next`
-- that walks its backing.
local views = realSetmetatable({}, { __mode = "k" })

-- A sealed value's metatable names it in `__metatable`, which `getmetatable` returns,
-- so one shared writer can say what was written to.
local function refuseWrite(value, key)
  error(getmetatable(value) .. ": cannot set '" .. tostring(key) .. "'", 2)
end

local function viewLength(value) return #sealed[value] end

-- A view walks its backing with the `next` it was made with (`views[value]`).
local function viewNext(value, key)
  return views[value](sealed[value], key)
end

local function viewPairs(value) return viewNext, value, nil end

local trusted = {}

--- The tables in which droprules' own Lua keeps what it read of the host's data, each
--- listed once it holds something: when the data's version moves, the host empties every
--- table listed here (and the list) before any Lua runs again, in C, so it cannot fail.
trusted.readings = host.readings

--- Like `readings`, for fields kept in a table that also holds what must stay: each
--- entry `{table, key...}` is listed once one of its keys holds something, and when the
--- version moves the host removes those keys of `table`.
trusted.fieldReadings = host.fieldReadings

--- A key trusted Lua may use in a host object's backing for its own bookkeeping: `next`
--- over the object never gives it.
local hidden = {}
trusted.hidden = hidden

-- `next` for rule code, in C (its errors name `next` at the rule's line): a host object
-- is walked through its backing, a view with its own walk, and `hidden` never given.
local sealedNext = bounded.makeNext(sealed, views, hidden)
-- The global one too (droprules' own code walks only plain tables with it, which it
-- walks as Lua's does): Lua names a function in an error by where the globals hold it.
next = sealedNext -- luacheck: ignore 121

--- A read-only view of `backing`, described by `what` in errors. Reads go straight to
--- the backing table (no function call), so views cost nothing on the hot path. `walk`
--- (default `next`) is how `next`, `pairs` and copies go through it: a backing whose
--- metatable answers some keys gives a walk that names them too. `call`, if given, is
--- what calling the view does (`item.data` is a view, and `item:data(type)` a method).
function trusted.view(backing, what, walk, call)
  local value = realSetmetatable({}, {
    __index = backing, __newindex = refuseWrite, __len = viewLength, __pairs = viewPairs,
    __metatable = what, __name = "droprules.view", __call = call,
  })
  sealed[value] = backing
  views[value] = walk or realNext
  return value
end

--- Views `value` and every table inside it; `value` must be a tree (host data).
function trusted.freeze(value, what)
  if type(value) ~= "table" then return value end
  for key, element in realNext, value do
    if type(element) == "table" then value[key] = trusted.freeze(element, what) end
  end
  return trusted.view(value, what)
end

--- A host object: methods and fixed fields live in `backing`. With `fetch`, a field read
--- of the host lives in `fresh` (read first, so a kept read costs one table hop), and one
--- missing from both is asked of `fetch(backing, key)`, which stores it in `fresh` and
--- lists `fresh` in `trusted.readings`, for the host to empty when its data changes.
function trusted.object(backing, what, describe, fetch, fresh)
  local first = backing
  if fetch ~= nil then
    realSetmetatable(backing, { __index = fetch })
    realSetmetatable(fresh, { __index = backing })
    first = fresh
  end
  local value = realSetmetatable({}, {
    __index = first, __newindex = refuseWrite, __tostring = describe,
    __metatable = what, __name = "droprules." .. what,
  })
  sealed[value] = backing
  return value
end

--- A plain copy of a view (and the views inside it), so that data read through one
--- object can be stored through another; anything else is returned as it is.
function trusted.thaw(value)
  if not views[value] then return value end
  local plain = {}
  for key, element in views[value], sealed[value] do plain[key] = trusted.thaw(element) end
  return plain
end

--- The table behind a sealed value, for the host's own code.
function trusted.backing(value) return sealed[value] end

-- `extra`: globals the environment adds (each table copied); `modules`: what `require`
-- gives for names the host provides itself (a test file's `luassert`), before any file.
function trusted.newEnvironment(extra, modules)
  local env = {
    assert = assert, error = error, ipairs = ipairs, pairs = pairs,
    pcall = pcall, rawequal = rawequal, rawget = rawget, rawlen = rawlen,
    select = select, getmetatable = getmetatable,
    tonumber = tonumber, tostring = tostring, type = type, xpcall = xpcall,
    _VERSION = _VERSION,
    -- Read-only: a string's methods are the one string library every file's strings
    -- share, so a helper added here would never be a method; say so at the write.
    string = trusted.view(copy(string, "dump"),
      "string (read-only: strings share one set of methods across rule files; keep helpers in a local table)"),
    table = copy(table), math = ownMath(),
    utf8 = copy(utf8), coroutine = copy(coroutine),
  }
  env._G = env
  -- Each environment has its own modules: a module's table, changed by one rule file,
  -- is never the table another file required.
  local loadedModules = {}
  function env.rawset(object, key, value)
    if sealed[object] ~= nil then
      error("rawset: " .. getmetatable(object) .. " belongs to the host and cannot be set", 2)
    end
    return realRawset(object, key, value)
  end
  env.next = sealedNext -- luacheck: ignore 121
  -- Lua's own checks, made here so that their errors name `setmetatable` and the
  -- rule's line, as Lua's do: called from here, the C function cannot fail.
  function env.setmetatable(...)
    local object, metatable = ...
    if type(object) ~= "table" then
      local got = select("#", ...) == 0 and "no value" or type(object)
      error("bad argument #1 to 'setmetatable' (table expected, got " .. got .. ")", 2)
    end
    local kind = type(metatable)
    if kind ~= "table" and (kind ~= "nil" or select("#", ...) < 2) then
      local got = select("#", ...) < 2 and "no value" or kind
      error("bad argument #2 to 'setmetatable' (nil or table expected, got " .. got .. ")", 2)
    end
    local current = rawMetatable(object)
    if current ~= nil and rawget(current, "__metatable") ~= nil then
      error("cannot change a protected metatable", 2)
    end
    if kind == "table" and rawget(metatable, "__gc") ~= nil then
      error("__gc metamethods are not available to rules", 2)
    end
    return realSetmetatable(object, metatable)
  end
  -- As Lua's load, text only: a mode without "t" refuses text as Lua's does (binary
  -- chunks are never loaded), and an explicit nil environment leaves the chunk none.
  function env.load(...)
    local chunk, chunkName, mode, chunkEnv = ...
    -- Lua's own argument errors, named `load` and at the rule's line: the C function
    -- below is called from here, where it would be named after its local.
    local kind = type(chunk)
    if kind ~= "string" and kind ~= "number" and kind ~= "function" then
      local got = select("#", ...) == 0 and "no value" or kind
      error("bad argument #1 to 'load' (function expected, got " .. got .. ")", 2)
    end
    local nameKind = type(chunkName)
    if chunkName ~= nil and nameKind ~= "string" and nameKind ~= "number" then
      error("bad argument #2 to 'load' (string expected, got " .. nameKind .. ")", 2)
    end
    if type(mode) == "string" and not realFind(mode, "t", 1, true) then
      return nil, "attempt to load a text chunk (mode is '" .. mode .. "')"
    end
    -- "@name" says the chunk is a file: only the host loads files. Named "=name", the
    -- chunk's errors read the same, but coverage and reports never take it for one.
    if type(chunkName) == "string" and realSub(chunkName, 1, 1) == "@" then
      chunkName = "=" .. realSub(chunkName, 2)
    end
    if select("#", ...) < 4 then chunkEnv = env end
    return boundedLoad(chunk, chunkName, chunkEnv)
  end
  -- A limit's error is raised inside the count hook, where Lua runs no hook: a message
  -- handler run then would be unbounded. It is skipped, and the error goes on as it is.
  function env.xpcall(body, handler, ...)
    if type(handler) ~= "function" then
      error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
    end
    return realXpcall(body, function(message)
      if raisedInHook() then return message end
      return handler(message)
    end, ...)
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
    local line = concat(parts, "\t")
    -- Cut here, before the host copies it: a trace is read by people.
    if #line > maximumPrintedLine then
      line = line:sub(1, maximumPrintedLine) .. "... (" .. (#line - maximumPrintedLine) .. " more bytes not shown)"
    end
    host.print(line)
  end
  function env.require(name)
    if type(name) ~= "string" then
      error("require expects a module name string", 2)
    end
    local cached = loadedModules[name]
    if cached ~= nil then return cached.value end
    if modules ~= nil and modules[name] ~= nil then return modules[name] end
    local source, path = host.readModule(name)
    if source == nil then error(path, 2) end
    local chunk, message = boundedLoad(source, "@" .. path, trusted.newEnvironment(extra, modules))
    if chunk == nil then error(message, 0) end
    local value = chunk(name, path)
    if value == nil then value = true end
    loadedModules[name] = { value = value }
    return value
  end
  if extra then
    for name, value in pairs(extra) do
      -- A table global (droprules) is copied, so no file can change another's; one with
      -- a metatable (a test file's luassert) is an object, whose behaviour a copy loses.
      env[name] = type(value) == "table" and rawMetatable(value) == nil and copy(value) or value
    end
  end
  return env
end

math.randomseed(randomSeed)
return trusted
