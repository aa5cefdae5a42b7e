-- The Lua side of *_test.lua files: test, expect and its matchers, scenario, simulations
-- and drags, over host functions that run real rule hosts.
-- The file loads once: its top level registers the tests, which then run in order in
-- that one state (as busted runs a spec file).
local host, busted = ...
local rawget = rawget
-- The raw getmetatable: the metatables below are locked (__metatable) against test code.
local setmetatable, getmetatable, type, error, pairs, tostring, rawequal =
  setmetatable, debug.getmetatable, type, error, pairs, tostring, rawequal
local concat, sort, format = table.concat, table.sort, string.format

local tests = {}
-- The file's properties (`property(name, check)`), in order: each test checks them after
-- every performed drop, and `droprules fuzz` after every drop it performs.
local properties = {}

-- True while the properties are being checked: a drop a property makes itself (in a
-- scenario of its own) is not checked again, or each check would start the next.
local checkingProperties = false

-- The first property the committed board of `sim` breaks: its name and why, or nil.
local function brokenProperty(sim)
  if #properties == 0 or checkingProperties then return nil end
  local board = host.snapshot(sim)
  checkingProperties = true
  for _, entry in ipairs(properties) do
    local ok, result, message = pcall(entry.check, board)
    if not ok or result == false then
      checkingProperties = false
      if not ok then return entry.name, tostring(result) end
      return entry.name, message and tostring(message) or "it returned false"
    end
  end
  checkingProperties = false
  return nil
end

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

-- Deep equality, one definition for expect's toEqual and luassert's same (busted.lua):
-- tables compare key by key, and a cycle compares equal where it closes.
local deepEqual = busted.deepEqual

-- Where the caller of the function `level` frames up stands: `file:line`.
local function whereIs(level)
  local info = debug.getinfo(level + 1, "Sl")
  if info == nil then return "?" end
  local source = info.source
  if source:sub(1, 1) == "@" or source:sub(1, 1) == "=" then source = source:sub(2) end
  return source .. ":" .. tostring(info.currentline)
end

-- The expectations of the running test, each until a matcher checks it: one left
-- unchecked fails the test (`expect(x)` alone checks nothing).
local unchecked = {}

local Expectation = {}
Expectation.__index = Expectation

-- Raises at the test's line unless the matcher passed (or, negated, failed): level 3 is
-- the test, since each matcher runs as a tail call of its wrapper below.
local function check(self, passed, message, negatedMessage)
  if self.negated then passed, message = not passed, negatedMessage end
  if not passed then error(message, 3) end
end

function Expectation:toBe(expected)
  local actual = self.actual
  check(self, rawequal(actual, expected) or actual == expected,
    "expected " .. show(expected) .. ", got " .. show(actual),
    "expected anything but " .. show(expected) .. ", got it")
end
function Expectation:toEqual(expected)
  check(self, deepEqual(self.actual, expected), "expected " .. show(expected) .. ", got " .. show(self.actual),
    "expected anything but " .. show(expected) .. ", got it")
end
function Expectation:toBeNil()
  check(self, self.actual == nil, "expected nil, got " .. show(self.actual), "expected a value, got nil")
end
function Expectation:toBeTruthy()
  check(self, self.actual, "expected a truthy value, got " .. show(self.actual),
    "expected a falsy value, got " .. show(self.actual))
end
function Expectation:toBeFalsy()
  check(self, not self.actual, "expected a falsy value, got " .. show(self.actual),
    "expected a truthy value, got " .. show(self.actual))
end
function Expectation:toContain(expected)
  local actual = self.actual
  local found = false
  if type(actual) == "string" then
    found = type(expected) == "string" and actual:find(expected, 1, true) ~= nil
  elseif type(actual) == "table" then
    for _, value in pairs(actual) do
      if deepEqual(value, expected) then found = true break end
    end
  end
  check(self, found, "expected " .. show(actual) .. " to contain " .. show(expected),
    "expected " .. show(actual) .. " not to contain " .. show(expected))
end
-- Calls the function under test: it must raise, with a message that contains `pattern`
-- as plain text or matches it as a Lua pattern (any message when nil).
function Expectation:toRaise(pattern)
  if type(self.actual) ~= "function" then
    error("toRaise expects a function: expect(function() ... end):toRaise(pattern), got " .. show(self.actual), 2)
  end
  if pattern ~= nil and type(pattern) ~= "string" then
    error("toRaise expects a string pattern or nothing, got " .. show(pattern), 2)
  end
  local ok, raised = pcall(self.actual)
  local message = not ok and tostring(raised) or nil
  local matches = false
  if not ok then
    if pattern == nil or message:find(pattern, 1, true) ~= nil then
      matches = true
    else
      -- A malformed pattern ("[") matches nothing: pcall's own error is no match.
      local valid, found = pcall(string.find, message, pattern)
      matches = valid and found ~= nil
    end
  end
  local wanted = pattern and "an error matching " .. show(pattern) or "an error"
  check(self, matches,
    ok and "expected " .. wanted .. ", but the function returned" or "expected " .. wanted .. ", got " .. show(message),
    "expected no " .. (pattern and wanted:sub(4) or "error") .. ", got " .. show(message))
end

-- A spy's calls, checked for the matchers that take one.
local function spiedCalls(self, matcher)
  local spy = self.actual
  if type(spy) ~= "table" or rawget(spy, "spy") == nil then
    error(matcher .. " expects a spy: expect(sim:spy(\"performDrop\")):" .. matcher .. "(...), got " .. show(spy), 3)
  end
  return spy.calls, spy.description
end
function Expectation:toHaveBeenCalled()
  local calls, description = spiedCalls(self, "toHaveBeenCalled")
  check(self, #calls > 0, "expected " .. description .. " to have been called, but it was not",
    "expected " .. description .. " not to have been called, but it was called " .. #calls .. " times")
end
function Expectation:toHaveBeenCalledTimes(count)
  local calls, description = spiedCalls(self, "toHaveBeenCalledTimes")
  check(self, #calls == count, "expected " .. description .. " to have been called " .. tostring(count)
    .. " times, but it was called " .. #calls .. " times",
    "expected " .. description .. " not to have been called " .. tostring(count) .. " times, but it was")
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
      self.checked.done = true
      return method(self, ...)
    end
  end
end
-- Locked: a test that reached the matchers through getmetatable(expect(x)) could make
-- every later test of its file pass, since the file's tests share one state.
Expectation.__metatable = "droprules.Expectation (locked)"
-- The negated expectation, as `expect(x).no` is: `expect(x):never():toBe(y)`.
function Expectation:never()
  if getmetatable(self) ~= Expectation then
    error("call never with a colon: expect(value):never():toBe(...)", 2)
  end
  return self.no or self
end

local Drag = {}
-- Fields computed at each read, by name: a drag's state changes under its handle.
local dragFields = {
  -- The drag's last step as the JSON trace has it (proposal, target, index, downgrade,
  -- printed, skipped, calls, ...), nil before the first.
  lastStep = function(drag)
    local last, message = host.lastStep(drag.sim, drag.serial)
    if last == nil and message ~= nil then error(message, 3) end
    return last
  end,
}
Drag.__metatable = "droprules.Drag (locked)"
Drag.__index = function(drag, key)
  local field = dragFields[key]
  if field ~= nil then return field(drag) end
  return Drag[key]
end
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
-- Lets `ms` milliseconds pass without moving (a dwell): the target is asked again.
function Drag:wait(ms) return step(self, "wait", ms) end
-- Moves targets' frames after a layout change, { id = { x, y, w, h } }: the pointer,
-- where it is, is hit-tested again.
function Drag:frames(frames)
  if type(frames) ~= "table" then error("drag:frames expects { id = { x, y, width, height }, ... }", 2) end
  return step(self, "frames", frames)
end
function Drag:drop()
  local outcome = step(self, "drop")
  if outcome == "performed" then
    local name, why = brokenProperty(self.sim)
    if name ~= nil then error("property '" .. name .. "' does not hold after the drop: " .. why, 2) end
  end
  return outcome
end
function Drag:cancel() return step(self, "cancel") end
-- The target as this drag's handlers see it now: staged changes and drag-only data.
function Drag:target(id)
  local target, message = host.target(self.sim, id, self.serial)
  if target == nil then error(message, 2) end
  return target
end

-- A spy on a rule handler of one simulation: every call of it from the spy's making on,
-- read at each `spy.calls`.
local spyMeta = {
  __metatable = "droprules.Spy (locked)",
  __index = function(spy, key)
    if key == "calls" then return host.calls(spy.sim, spy.from, spy.handler, spy.target, spy.type) end
    return nil
  end,
}

local Sim = {}
-- Fields computed at each read, by name.
local simFields = {
  errors = function(sim) return host.errors(sim.id) end,
}
local simMeta = {
  __metatable = "droprules.Simulation (locked)",
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
function Sim:item(id)
  local item, message = host.item(self.id, id)
  if item == nil and message ~= nil then error(message, 2) end
  return item
end
-- The rule errors so far that no test took, oldest first; taken, they no longer fail
-- the test.
function Sim:takeErrors()
  return host.errors(self.id, true)
end
-- Spies on a handler: `options.target` (an id) or `options.type` (a target type) narrows
-- it to one target or one rule.
function Sim:spy(handler, options)
  if type(handler) ~= "string" then error("sim:spy expects a handler name, such as \"performDrop\"", 2) end
  if options ~= nil and type(options) ~= "table" then
    error("sim:spy expects { target = id } or { type = targetType } as its options", 2)
  end
  options = options or {}
  local from, message = host.spyFrom(self.id, handler)
  if from == nil then error(message, 2) end
  local narrowed = options.target and " of " .. options.target or options.type and " of " .. options.type or ""
  return setmetatable({
    spy = true, sim = self.id, from = from, handler = handler, target = options.target, type = options.type,
    description = handler .. narrowed,
  }, spyMeta)
end

-- The file's groups: the file itself first, then each describe block in the order the
-- file opens them. A group keeps its hooks: before_each/after_each around each of its
-- tests, setup/teardown once around all of them (the host runs them in that order).
local groups = { { before = {}, after = {}, setup = {}, teardown = {} } }
-- The groups being registered, outermost first: the file, then each open describe.
local open = { 1 }
-- Tests and hooks are registered while the file's top level runs, and only then: the
-- host reads the list once, when the load ends, and runs the tests in that one state.
local registering = true
-- level: the frames from here up to the file's call.
local function stillRegistering(kind, level)
  if not registering then
    error(kind .. " registers only while the file loads (at its top level or in a describe), not in a test", level)
  end
end

-- Keeps a test of the open groups. Called from the registration the file called.
local function register(kind, name, body, pending)
  stillRegistering(kind, 4)
  if type(name) ~= "string" or (not pending and type(body) ~= "function") then
    error(kind .. " expects a name and a function", 3)
  end
  local names, chain = {}, {}
  for depth, index in ipairs(open) do
    chain[depth] = index
    if groups[index].name then names[#names + 1] = groups[index].name end
  end
  names[#names + 1] = name
  tests[#tests + 1] = {
    name = concat(names, " "), body = body, line = debug.getinfo(3, "l").currentline, pending = pending,
    chain = chain,
  }
end

local globals = {}
-- No tail calls: register's error level and line count on the frame below.
function globals.test(name, body) register("test", name, body) end
function globals.it(name, body) register("it", name, body) end
-- Why the running test called pending(), until the host takes it.
local pendingNow
-- A test to write later: listed as pending, never run, never a failure. Inside a
-- running test, as busted has it, it stops the test and marks it pending.
function globals.pending(name, body)
  if not registering then
    pendingNow = type(name) == "string" and name or "pending"
    error(pendingNow, 2)
  end
  if body ~= nil and type(body) ~= "function" then error("pending expects a name, and a function or nothing", 2) end
  register("pending", name, body, true)
end
-- What a test asked to run after it, whatever it did (`finally`), last first.
local finalizers = {}
function globals.finally(body)
  if registering then error("finally runs inside a test, to clean up after it", 2) end
  if type(body) ~= "function" then error("finally expects a function", 2) end
  finalizers[#finalizers + 1] = body
end
function globals.describe(name, body)
  stillRegistering("describe", 3)
  if type(name) ~= "string" or type(body) ~= "function" then error("describe expects a name and a function", 2) end
  groups[#groups + 1] = { name = name, before = {}, after = {}, setup = {}, teardown = {} }
  open[#open + 1] = #groups
  -- A describe that raises fails the load; closed here all the same, in case the file
  -- catches the error and goes on registering.
  local ok, message = pcall(body)
  open[#open] = nil
  if not ok then error(message, 0) end
end
local function hook(kind, list)
  return function(body)
    stillRegistering(kind, 3)
    if type(body) ~= "function" then error(kind .. " expects a function", 2) end
    local hooks = groups[open[#open]][list]
    hooks[#hooks + 1] = body
  end
end
-- Run around every test of their describe block (and of the nested ones), before_each
-- outermost first, after_each innermost first; after_each also runs when the test failed.
globals.before_each = hook("before_each", "before")
globals.after_each = hook("after_each", "after")
-- Run once for their block: setup before its first test that runs, teardown after its
-- last. busted's lazy_setup and lazy_teardown are the same.
globals.setup = hook("setup", "setup")
globals.teardown = hook("teardown", "teardown")
globals.lazy_setup = globals.setup
globals.lazy_teardown = globals.teardown
globals.strict_setup = globals.setup
globals.strict_teardown = globals.teardown
-- busted's other names. Every test file already runs in a Lua state of its own, with
-- its own globals and modules, so insulate and expose group tests as describe does.
globals.context, globals.insulate, globals.expose = globals.describe, globals.describe, globals.describe
globals.spec = globals.it
function globals.randomize() end
for name, value in pairs(busted.globals) do globals[name] = value end
-- A property of every board the rules can make, checked after every performed drop:
-- `check(board)` returns false (and a reason) or raises when it does not hold.
function globals.property(name, holds)
  stillRegistering("property", 3)
  if type(name) ~= "string" or type(holds) ~= "function" then
    error("property expects a name and a function of the board", 2)
  end
  properties[#properties + 1] = { name = name, check = holds, line = debug.getinfo(2, "l").currentline }
end
function globals.expect(actual)
  local record = { where = whereIs(2) }
  unchecked[#unchecked + 1] = record
  local expectation = setmetatable({ actual = actual, checked = record }, Expectation)
  expectation.no = setmetatable({ actual = actual, checked = record, negated = true }, Expectation)
  return expectation
end
function globals.scenario(spec)
  local id, message = host.scenario(spec or {})
  if id == nil then error(message, 2) end
  return setmetatable({ id = id }, simMeta)
end

-- `require "busted"` gives the same blocks, hooks and assert a spec sees as globals.
local bustedModule = {}
for name, value in pairs(globals) do bustedModule[name] = value end
busted.modules.busted = bustedModule

return {
  globals = globals,
  -- The names a simulation and a drag answer besides their own fields, which sit behind
  -- an __index function out of a test's reach: for the test that holds the API
  -- description to it.
  simulationKeys = function()
    local names = {}
    for name in pairs(Sim) do names[#names + 1] = name end
    for name in pairs(simFields) do names[#names + 1] = name end
    return names
  end,
  expectationKeys = function()
    local names = {}
    for name in pairs(Expectation) do
      if name ~= "__index" and name ~= "__metatable" then names[#names + 1] = name end
    end
    return names
  end,
  dragKeys = function()
    local names = {}
    for name in pairs(Drag) do
      if name ~= "__index" and name ~= "__metatable" then names[#names + 1] = name end
    end
    for name in pairs(dragFields) do names[#names + 1] = name end
    return names
  end,
  -- The file's properties, for droprules fuzz: { name, check, line } each.
  properties = function() return properties end,
  -- Each test as the host runs it, in the order the file registered them: its groups
  -- (outermost first), its before_each and after_each hooks in the order they run, and
  -- its body. Ends the registration: the file has loaded.
  tests = function()
    registering = false
    if #open > 1 then
      error("describe '" .. tostring(groups[open[#open]].name) .. "' never finished: its body stopped part-way "
        .. "(a coroutine that yielded in it?), and the tests registered after it would have joined it", 0)
    end
    local list = {}
    for position, test in ipairs(tests) do
      local before, after = {}, {}
      for _, index in ipairs(test.chain) do
        for _, body in ipairs(groups[index].before) do before[#before + 1] = body end
      end
      for depth = #test.chain, 1, -1 do
        for _, body in ipairs(groups[test.chain[depth]].after) do after[#after + 1] = body end
      end
      list[position] = {
        name = test.name, line = test.line, body = test.body, pending = test.pending, before = before, after = after,
        groups = test.chain,
      }
    end
    return list
  end,
  -- Each group's name (nil for the file) and its setup and teardown hooks.
  groups = function()
    local list = {}
    for index, group in ipairs(groups) do
      list[index] = { name = group.name, setup = group.setup, teardown = group.teardown }
    end
    return list
  end,
  -- Called before a test's hooks and after its last after_each: an expectation left
  -- without a matcher fails the test at its line.
  startTest = function()
    unchecked = {}
    finalizers = {}
  end,
  -- Called after a test's body, whatever it did: its finally blocks, last first.
  runFinalizers = function()
    local list = finalizers
    finalizers = {}
    for index = #list, 1, -1 do list[index]() end
  end,
  -- Called when a test is over: the spies and stubs it put on objects come off.
  endTest = function() busted.revert() end,
  -- Why the test just run called pending(), once; nil when it did not.
  takePending = function()
    local reason = pendingNow
    pendingNow = nil
    return reason
  end,
  -- What `require` gives test files for busted's modules (luassert, say...).
  modules = busted.modules,
  finishTest = function()
    for _, record in ipairs(unchecked) do
      if not record.done then
        error(record.where .. ": expect(...) has no matcher, so it checks nothing; call one, as in "
          .. "expect(x):toBe(y)", 0)
      end
    end
  end,
}
