-- The Lua side of *_test.lua files: test, expect and its matchers, scenario, simulations
-- and drags, over host functions that run real rule hosts.
-- only: the position of the one test this load runs, or nil for a load that lists them all.
local host, only = ...
local setmetatable, getmetatable, type, error, pairs, tostring, rawequal =
  setmetatable, getmetatable, type, error, pairs, tostring, rawequal
local concat, sort, format = table.concat, table.sort, string.format

local tests = {}
local registered = 0

local function show(value, depth)
  depth = depth or 0
  if type(value) == "string" then return format("%q", value) end
  if type(value) ~= "table" or depth > 3 then return tostring(value) end
  local keys, parts = {}, {}
  for key in pairs(value) do keys[#keys + 1] = key end
  sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local length = #value
  for index = 1, length do parts[#parts + 1] = show(value[index], depth + 1) end
  for _, key in ipairs(keys) do
    if not (math.type(key) == "integer" and key >= 1 and key <= length) then
      parts[#parts + 1] = tostring(key) .. " = " .. show(value[key], depth + 1)
    end
  end
  return "{" .. concat(parts, ", ") .. "}"
end

local function deepEqual(a, b)
  if rawequal(a, b) then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for key, value in pairs(a) do
    if not deepEqual(value, b[key]) then return false end
  end
  for key in pairs(b) do
    if a[key] == nil then return false end
  end
  return true
end

local Expectation = {}
Expectation.__index = Expectation

local function check(passed, message)
  if not passed then error(message, 3) end
end

function Expectation:toBe(expected)
  check(rawequal(self.actual, expected) or self.actual == expected,
    "expected " .. show(expected) .. ", got " .. show(self.actual))
end
function Expectation:toEqual(expected)
  check(deepEqual(self.actual, expected), "expected " .. show(expected) .. ", got " .. show(self.actual))
end
function Expectation:toBeNil()
  check(self.actual == nil, "expected nil, got " .. show(self.actual))
end
function Expectation:toBeTruthy()
  check(self.actual, "expected a truthy value, got " .. show(self.actual))
end
function Expectation:toBeFalsy()
  check(not self.actual, "expected a falsy value, got " .. show(self.actual))
end
function Expectation:toContain(expected)
  local actual = self.actual
  if type(actual) == "string" then
    check(type(expected) == "string" and actual:find(expected, 1, true) ~= nil,
      "expected " .. show(actual) .. " to contain " .. show(expected))
    return
  end
  if type(actual) == "table" then
    for _, value in pairs(actual) do
      if deepEqual(value, expected) then return end
    end
  end
  check(false, "expected " .. show(actual) .. " to contain " .. show(expected))
end
-- expect(x).toBe(y), with a dot, passes y as self and failed inside this file with
-- "attempt to index a number value (local 'self')": say how to call it instead. The
-- method runs as a tail call, so `check`'s error level still names the test's line.
for name, method in pairs(Expectation) do
  if type(method) == "function" then
    Expectation[name] = function(self, ...)
      if getmetatable(self) ~= Expectation then
        error("call " .. name .. " with a colon: expect(value):" .. name .. "(...), not expect(value)." .. name, 2)
      end
      return method(self, ...)
    end
  end
end

local Drag = {}
Drag.__index = Drag
local function step(drag, kind, ...)
  local result, message = host.step(drag.sim, drag.serial, kind, ...)
  if result == nil then error(message, 3) end
  return result
end
function Drag:over(id, options)
  return step(self, "over", id, options and options.index)
end
function Drag:at(x, y) return step(self, "at", x, y) end
function Drag:modifiers(list) return step(self, "modifiers", list or {}) end
function Drag:outside(spec)
  if spec ~= nil and type(spec) ~= "table" then
    error("drag:outside expects { accepts = {...}, operation = \"copy\" | \"move\" } or nothing", 2)
  end
  spec = spec or {}
  local accepts = spec.accepts
  if type(accepts) == "string" then accepts = { accepts } end
  return step(self, "outside", accepts, spec.operation)
end
function Drag:drop() return step(self, "drop") end
function Drag:cancel() return step(self, "cancel") end
-- The target as this drag's handlers see it now: staged changes and drag-only data.
function Drag:target(id)
  local target, message = host.target(self.sim, id, self.serial)
  if target == nil then error(message, 2) end
  return target
end

local Sim = {}
-- Fields computed at each read, by name.
local simFields = {
  errors = function(sim) return host.errors(sim.id) end,
}
local simMeta = {
  __index = function(sim, key)
    local field = simFields[key]
    if field ~= nil then return field(sim) end
    return Sim[key]
  end,
}
function Sim:drag(items, options)
  if type(items) == "string" then items = { items } end
  local refused, serial = host.drag(self.id, items, options or {})
  if refused == nil then error(serial, 2) end
  return setmetatable({ sim = self.id, serial = serial, refused = refused }, Drag)
end
function Sim:items(id)
  local list, message = host.items(self.id, id)
  if list == nil then error(message, 2) end
  return list
end
function Sim:target(id)
  local target, message = host.target(self.id, id)
  if target == nil then error(message, 2) end
  return target
end

local globals = {}
function globals.test(name, body)
  if type(name) ~= "string" or type(body) ~= "function" then
    error("test expects a name and a function", 2)
  end
  registered = registered + 1
  -- A load that runs one test keeps only that one; every test still gets a fresh load,
  -- so the others would only cost it time in a file of many tests.
  if only == nil or registered == only then
    tests[registered] = { name = name, body = body, line = debug.getinfo(2, "l").currentline }
  end
end
function globals.expect(actual)
  return setmetatable({ actual = actual }, Expectation)
end
function globals.scenario(spec)
  local id, message = host.scenario(spec or {})
  if id == nil then error(message, 2) end
  return setmetatable({ id = id }, simMeta)
end

-- A load for one test lists only that test: the host converts one, not all.
return {
  globals = globals,
  -- The names a simulation answers besides its own fields, which sit behind an __index
  -- function out of a test's reach: for the test that holds the API description to it.
  simulationKeys = function()
    local names = {}
    for name in pairs(Sim) do names[#names + 1] = name end
    for name in pairs(simFields) do names[#names + 1] = name end
    return names
  end,
  tests = function()
    if only then return { tests[only] } end
    return tests
  end,
}
