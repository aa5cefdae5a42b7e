-- busted's vocabulary beside droprules' own `expect`, so that a spec written for busted
-- runs as it is: luassert's `assert` (still Lua's assert when called), its chains and
-- assertions, `assert:register` with `say` messages, spies, stubs, mocks and matchers.
-- Loaded by testing.lua, in the test state's trusted environment.
local setmetatable, getmetatable, type, error, pairs, ipairs, tostring, select, rawequal, rawget, pcall =
  setmetatable, debug.getmetatable, type, error, pairs, ipairs, tostring, select, rawequal, rawget, pcall
local concat, unpack, format, find = table.concat, table.unpack, string.format, string.find
local pack = table.pack

-- say: message templates by key, filled with string.format.
local templates = {
  ["assertion.same.positive"] = "Expected objects to be the same.\nPassed in:\n%s\nExpected:\n%s",
  ["assertion.same.negative"] = "Expected objects to not be the same.\nPassed in:\n%s\nDid not expect:\n%s",
  ["assertion.equals.positive"] = "Expected objects to be equal.\nPassed in:\n%s\nExpected:\n%s",
  ["assertion.equals.negative"] = "Expected objects to not be equal.\nPassed in:\n%s\nDid not expect:\n%s",
  ["assertion.near.positive"] = "Expected values to be near.\nPassed in:\n%s\nExpected:\n%s +/- %s",
  ["assertion.near.negative"] = "Expected values to not be near.\nPassed in:\n%s\nDid not expect:\n%s +/- %s",
  ["assertion.matches.positive"] = "Expected strings to match.\nPassed in:\n%s\nExpected:\n%s",
  ["assertion.matches.negative"] = "Expected strings not to match.\nPassed in:\n%s\nDid not expect:\n%s",
  ["assertion.unique.positive"] = "Expected object to be unique:\n%s",
  ["assertion.unique.negative"] = "Expected object to not be unique:\n%s",
  ["assertion.error.positive"] = "Expected a different error.\nCaught:\n%s\nExpected:\n%s",
  ["assertion.error.negative"] = "Expected no error, but caught:\n%s",
  ["assertion.truthy.positive"] = "Expected to be truthy, but value was:\n%s",
  ["assertion.truthy.negative"] = "Expected to not be truthy, but value was:\n%s",
  ["assertion.falsy.positive"] = "Expected to be falsy, but value was:\n%s",
  ["assertion.falsy.negative"] = "Expected to not be falsy, but value was:\n%s",
  ["assertion.called.positive"] = "Expected to be called %s time(s), but was called %s time(s)",
  ["assertion.called.negative"] = "Expected not to be called exactly %s time(s), but it was.",
  ["assertion.called_at_least.positive"] = "Expected to be called at least %s time(s), but was called %s time(s)",
  ["assertion.called_at_most.positive"] = "Expected to be called at most %s time(s), but was called %s time(s)",
  ["assertion.called_more_than.positive"] = "Expected to be called more than %s time(s), but was called %s time(s)",
  ["assertion.called_less_than.positive"] = "Expected to be called less than %s time(s), but was called %s time(s)",
  ["assertion.called_with.positive"] =
    "Function was never called with matching arguments.\nCalled with (last call if any):\n%s\nExpected:\n%s",
  ["assertion.called_with.negative"] = "Function was called with matching arguments at least once.\n"
    .. "Called with (last matching call):\n%s\nDid not expect:\n%s",
  ["assertion.returned_with.positive"] =
    "Function never returned matching arguments.\nReturned (last call if any):\n%s\nExpected:\n%s",
  ["assertion.returned_with.negative"] = "Function returned matching arguments at least once.\n"
    .. "Returned (last matching call):\n%s\nDid not expect:\n%s",
  ["assertion.internal.argtolittle"] = "the '%s' function requires a minimum of %s arguments, got: %s",
  ["assertion.internal.badargtype"] = "bad argument #%s to '%s' (%s expected, got %s)",
}

local say = setmetatable({
  set = function(_, key, text) templates[key] = text end,
  set_namespace = function() end,
}, {
  __call = function(_, key, values)
    local template = templates[key]
    if template == nil then return nil end
    values = values or {}
    local strings = {}
    for index = 1, values.n or #values do strings[index] = tostring(values[index]) end
    return format(template, unpack(strings, 1, values.n or #values))
  end,
})

-- Values as luassert prints them: `(number) 1`, `(string) 'text'`, a table's contents.
local function show(value, depth, seen)
  depth, seen = depth or 0, seen or {}
  local kind = type(value)
  if kind == "string" then return "'" .. value .. "'" end
  if kind ~= "table" then return tostring(value) end
  if seen[value] then return "<cycle>" end
  if depth > 3 then return "{ ... }" end
  seen[value] = true
  local keys = {}
  for key in pairs(value) do keys[#keys + 1] = key end
  table.sort(keys, function(a, b)
    local ka, kb = type(a), type(b)
    if ka ~= kb then return ka < kb end
    if ka == "number" or ka == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for _, key in ipairs(keys) do
    local shown = type(key) == "string" and key or "[" .. show(key, depth + 1, seen) .. "]"
    parts[#parts + 1] = "  " .. string.rep("  ", depth) .. shown .. " = " .. show(value[key], depth + 1, seen)
  end
  seen[value] = nil
  if #parts == 0 then return "{ }" end
  return "{\n" .. concat(parts, "\n") .. " }"
end
local function described(value) return "(" .. type(value) .. ") " .. show(value) end

local function deepEqual(a, b, seen)
  if rawequal(a, b) then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for key, value in pairs(a) do
    if not deepEqual(value, b[key], seen) then return false end
  end
  for key in pairs(b) do
    if a[key] == nil then return false end
  end
  return true
end

-- Matchers (luassert.match): `match._`, `match.is_string()`, `match.is_same(v)`... A
-- matcher stands for an argument in called_with and returned_with.
local Matcher = {}
Matcher.__index = Matcher
local function isMatcher(value) return getmetatable(value) == Matcher end
local function matcher(name, test) return setmetatable({ name = name, test = test }, Matcher) end
function Matcher:__call(value) return self.test(value) end
function Matcher:__tostring() return "matcher " .. self.name end

local match = {}
match._ = matcher("_", function() return true end)
match.is_ref = function(ref) return matcher("ref", function(value) return rawequal(value, ref) end) end
local function addMatcher(name, make)
  match[name], match["is_" .. name] = make, make
  local negated = function(...)
    local inner = make(...)
    return matcher("not " .. name, function(value) return not inner.test(value) end)
  end
  match["is_not_" .. name], match["not_" .. name] = negated, negated
end
for _, kind in ipairs({ "nil", "boolean", "number", "string", "table", "function", "userdata", "thread" }) do
  addMatcher(kind, function() return matcher(kind, function(value) return type(value) == kind end) end)
end
addMatcher("truthy", function()
  return matcher("truthy", function(value) return value ~= nil and value ~= false end)
end)
addMatcher("falsy", function() return matcher("falsy", function(value) return value == nil or value == false end) end)
addMatcher("true", function() return matcher("true", function(value) return value == true end) end)
addMatcher("false", function() return matcher("false", function(value) return value == false end) end)
addMatcher("equal", function(expected) return matcher("equal", function(value) return value == expected end) end)
match.equals, match.is_equals = match.equal, match.is_equal
addMatcher("same", function(expected)
  return matcher("same", function(value) return deepEqual(value, expected) end)
end)
addMatcher("matches", function(pattern, init, plain)
  return matcher("matches", function(value)
    return type(value) == "string" and find(value, pattern, init, plain) ~= nil
  end)
end)
match.match = match.matches
match.is_matcher = isMatcher

-- Arguments compared as called_with compares them: a matcher matches, else deep equality.
local function argumentsMatch(actual, expected)
  if actual.n ~= expected.n then
    -- A trailing nil is a missing argument: busted compares by length all the same.
    return false
  end
  for index = 1, expected.n do
    local want, got = expected[index], actual[index]
    if isMatcher(want) then
      if not want.test(got) then return false end
    elseif not deepEqual(got, want) then
      return false
    end
  end
  return true
end

-- Spies (luassert.spy): a callable that records each call's arguments and results.
local Spy = {}
Spy.__index = Spy
-- The spies the running test made on objects: reverted after it, as busted does.
local madeThisTest = {}

local function isSpy(value) return getmetatable(value) == Spy end
function Spy:__call(...)
  local arguments = pack(...)
  self.calls[#self.calls + 1] = { vals = arguments, refs = arguments }
  local results = pack(self.callback(...))
  self.returnvals[#self.returnvals + 1] = { vals = results }
  return unpack(results, 1, results.n)
end
Spy.__tostring = function() return "spy" end
function Spy:clear()
  self.calls, self.returnvals = {}, {}
  return self
end
function Spy:revert()
  if self.target ~= nil then
    self.target[self.key] = self.original
    self.target = nil
  end
  return self
end
function Spy:called(times)
  if times == nil then return #self.calls > 0, #self.calls end
  return #self.calls == times, #self.calls
end
function Spy:called_with(...)
  local expected = pack(...)
  for _, call in ipairs(self.calls) do
    if argumentsMatch(call.vals, expected) then return true, call.vals end
  end
  return false, self.calls[#self.calls] and self.calls[#self.calls].vals
end
function Spy:returned_with(...)
  local expected = pack(...)
  for _, returned in ipairs(self.returnvals) do
    if argumentsMatch(returned.vals, expected) then return true, returned.vals end
  end
  return false, self.returnvals[#self.returnvals] and self.returnvals[#self.returnvals].vals
end
-- Stubs answer with what they were told to.
function Spy:returns(...)
  local values = pack(...)
  self.callback = function() return unpack(values, 1, values.n) end
  return self
end
function Spy:invokes(body)
  self.callback = body
  return self
end
function Spy:on_call_with(...)
  local expected = pack(...)
  local spy = self
  return {
    returns = function(_, ...)
      local values, previous = pack(...), spy.callback
      spy.callback = function(...)
        if argumentsMatch(pack(...), expected) then return unpack(values, 1, values.n) end
        return previous(...)
      end
      return spy
    end,
    invokes = function(_, body)
      local previous = spy.callback
      spy.callback = function(...)
        if argumentsMatch(pack(...), expected) then return body(...) end
        return previous(...)
      end
      return spy
    end,
  }
end
Spy.callback = function() end

local function newSpy(callback)
  if callback ~= nil and type(callback) ~= "function" and not (getmetatable(callback) or {}).__call then
    error("spy.new expects a function, got " .. type(callback), 3)
  end
  return setmetatable({ calls = {}, returnvals = {}, callback = callback or function() end }, Spy)
end

local function spyOn(target, key, callback)
  if type(target) ~= "table" then error("spy.on expects a table, got " .. type(target), 3) end
  local original = target[key]
  local made = newSpy(callback or original)
  made.target, made.key, made.original = target, key, original
  target[key] = made
  madeThisTest[#madeThisTest + 1] = made
  return made
end

-- busted's libraries, their members behind a locked metatable as the host's objects are:
-- a spec reads them and cannot change them for the specs after it.
local function library(name, members, call)
  return setmetatable({}, {
    __index = members, __call = call, __metatable = name .. " (locked)",
    __newindex = function() error(name .. " is read-only", 2) end,
  })
end

local spy = library("luassert.spy", {
  new = function(callback) return newSpy(callback) end,
  on = function(target, key) return spyOn(target, key) end,
  is_spy = isSpy,
}, function(_, callback) return newSpy(callback) end)

local function newStub(target, key, ...)
  if target == nil then return newSpy():returns(...) end
  return spyOn(target, key, function() end):returns(...)
end
local stub = library("luassert.stub", { new = newStub, is_stub = isSpy },
  function(_, target, key, ...) return newStub(target, key, ...) end)

-- mock(object, stubs): every function of `object`, nested tables included, becomes a
-- spy (or a stub that does nothing, when `stubs` is true).
local function mock(object, stubs, seen)
  seen = seen or {}
  if seen[object] then return object end
  seen[object] = true
  for key, value in pairs(object) do
    if type(value) == "function" then
      if stubs then stub(object, key) else spyOn(object, key) end
    elseif type(value) == "table" and not isSpy(value) then
      mock(value, stubs, seen)
    end
  end
  return object
end
local function revertMock(object, seen)
  seen = seen or {}
  if seen[object] then return object end
  seen[object] = true
  for _, value in pairs(object) do
    if isSpy(value) then value:revert() elseif type(value) == "table" then revertMock(value, seen) end
  end
  return object
end
local mockModule = library("luassert.mock", { revert = function(object) return revertMock(object) end },
  function(_, object, stubs) return mock(object, stubs) end)

-- Assertions: each takes (state, arguments) and returns whether it holds; a failure says
-- its positive or negative message, filled with the arguments as luassert shows them.
local assertions = {}

local function register(kind, name, body, positive, negative)
  if kind == "assertion" then
    assertions[name] = { body = body, positive = positive, negative = negative }
  elseif kind == "matcher" then
    local make = function(...)
      local state = pack(...)
      return matcher(name, function(value) return body(state, pack(value)) end)
    end
    addMatcher(name, make)
  else
    error("assert:register expects \"assertion\", \"modifier\" or \"matcher\", got " .. tostring(kind), 4)
  end
end

local function shownArguments(arguments, fromIndex)
  local shown = { n = arguments.n }
  for index = fromIndex or 1, arguments.n do shown[index] = described(arguments[index]) end
  return shown
end

local function needArguments(arguments, count, name)
  if arguments.n < count then
    error(say("assertion.internal.argtolittle", { name, count, arguments.n, n = 3 }), 4)
  end
end

register("assertion", "equals", function(state, arguments)
  needArguments(arguments, 2, "equals")
  state.message = arguments[3] or state.message
  state.shown = { n = 2, described(arguments[2]), described(arguments[1]) }
  return arguments[1] == arguments[2]
end, "assertion.equals.positive", "assertion.equals.negative")
assertions.equal = assertions.equals
register("assertion", "same", function(state, arguments)
  needArguments(arguments, 2, "same")
  state.message = arguments[3] or state.message
  state.shown = { n = 2, described(arguments[2]), described(arguments[1]) }
  return deepEqual(arguments[1], arguments[2])
end, "assertion.same.positive", "assertion.same.negative")
register("assertion", "truthy", function(state, arguments)
  state.message = arguments[2] or state.message
  return arguments[1] ~= nil and arguments[1] ~= false
end, "assertion.truthy.positive", "assertion.truthy.negative")
register("assertion", "falsy", function(state, arguments)
  state.message = arguments[2] or state.message
  return arguments[1] == nil or arguments[1] == false
end, "assertion.falsy.positive", "assertion.falsy.negative")
register("assertion", "true", function(state, arguments)
  state.message = arguments[2] or state.message
  state.shown = { n = 2, described(arguments[1]), "(boolean) true" }
  return arguments[1] == true
end,
  "assertion.same.positive", "assertion.same.negative")
register("assertion", "false", function(state, arguments)
  state.message = arguments[2] or state.message
  state.shown = { n = 2, described(arguments[1]), "(boolean) false" }
  return arguments[1] == false
end,
  "assertion.same.positive", "assertion.same.negative")
for _, kind in ipairs({ "nil", "boolean", "number", "string", "table", "function", "userdata", "thread" }) do
  register("assertion", kind, function(state, arguments)
    state.message = arguments[2] or state.message
    state.shown = { n = 2, described(arguments[1]), "type " .. kind }
    return type(arguments[1]) == kind
  end,
    "assertion.same.positive", "assertion.same.negative")
end
register("assertion", "near", function(state, arguments)
  needArguments(arguments, 3, "near")
  state.message = arguments[4] or state.message
  state.shown = { n = 3, described(arguments[2]), described(arguments[1]), described(arguments[3]) }
  local actual, expected, tolerance = arguments[1], arguments[2], arguments[3]
  for index, value in ipairs({ actual, expected, tolerance }) do
    if type(value) ~= "number" then
      error(say("assertion.internal.badargtype", { index, "near", "number", type(value), n = 4 }), 4)
    end
  end
  return actual >= expected - tolerance and actual <= expected + tolerance
end, "assertion.near.positive", "assertion.near.negative")
register("assertion", "matches", function(state, arguments)
  needArguments(arguments, 2, "matches")
  state.message = arguments[5] or (type(arguments[3]) == "string" and arguments[3] or nil) or state.message
  state.shown = { n = 2, described(arguments[2]), described(arguments[1]) }
  local pattern, actual = arguments[1], arguments[2]
  if type(actual) == "number" then actual = tostring(actual) end
  return type(actual) == "string" and find(actual, pattern, arguments[3], arguments[4]) ~= nil
end, "assertion.matches.positive", "assertion.matches.negative")
assertions.match = assertions.matches
register("assertion", "unique", function(state, arguments)
  local list = arguments[1]
  state.message = (type(arguments[2]) == "string" and arguments[2] or arguments[3]) or state.message
  if type(list) ~= "table" then return false end
  local deep = arguments[2] ~= false
  local values = {}
  for _, value in pairs(list) do values[#values + 1] = value end
  for first = 1, #values do
    for second = first + 1, #values do
      local a, b = values[first], values[second]
      if (deep and deepEqual(a, b)) or (not deep and a == b) then return false end
    end
  end
  return true
end, "assertion.unique.positive", "assertion.unique.negative")

-- `has_error(f, expected)`: f raises, and (when given) with this error; the caught error
-- is kept for the message.
local function raises(state, arguments, compare)
  local body = arguments[1]
  if type(body) ~= "function" and not (getmetatable(body) or {}).__call then
    error(say("assertion.internal.badargtype", { 1, "error", "function or callable object", type(body), n = 4 }), 4)
  end
  local ok, caught = pcall(body)
  state.caught = caught
  state.message = arguments[3] or state.message
  if arguments.n >= 2 and arguments[2] ~= nil then state.expectedError = described(arguments[2]) end
  if ok then return false end
  return compare(caught, arguments[2], arguments)
end
register("assertion", "error", function(state, arguments)
  return raises(state, arguments, function(caught, expected, all)
    if all.n < 2 or expected == nil then return true end
    if type(expected) == "string" and type(caught) == "string" then
      -- luassert strips the position Lua puts before a string error.
      local message = caught:gsub("^.-:%d+: ", "", 1)
      return expected == caught or expected == message
    end
    return deepEqual(caught, expected)
  end)
end, "assertion.error.positive", "assertion.error.negative")
assertions.errors, assertions.has_error = assertions.error, assertions.error
register("assertion", "error_matches", function(state, arguments)
  return raises(state, { arguments[1], n = 1 }, function(caught)
    if type(caught) ~= "string" and type(caught) ~= "number" then return false end
    return find(tostring(caught), arguments[2], arguments[3], arguments[4]) ~= nil
  end)
end, "assertion.error.positive", "assertion.error.negative")
assertions.matches_error, assertions.error_match = assertions.error_matches, assertions.error_matches

-- Spy assertions: the state holds the spy, given by `assert.spy(s)` or as the first argument.
local function spyOf(state, arguments)
  local target = state.spy or arguments[1]
  if not isSpy(target) then
    error("bad argument #1 to 'called' (spy expected, got " .. type(target) .. ")", 5)
  end
  return target, state.spy and arguments or { n = arguments.n - 1, unpack(arguments, 2, arguments.n) }
end
local function counting(name, compare)
  register("assertion", name, function(state, arguments)
    local target, rest = spyOf(state, arguments)
    local expected, actual = rest[1], #target.calls
    state.counts = { expected == nil and "any" or expected, actual }
    return compare(actual, expected)
  end, "assertion." .. name .. ".positive", "assertion." .. name .. ".negative")
end
counting("called", function(actual, expected)
  if expected == nil then return actual > 0 end
  return actual == expected
end)
counting("called_at_least", function(actual, expected) return actual >= expected end)
counting("called_at_most", function(actual, expected) return actual <= expected end)
counting("called_more_than", function(actual, expected) return actual > expected end)
counting("called_less_than", function(actual, expected) return actual < expected end)
register("assertion", "called_with", function(state, arguments)
  local target, rest = spyOf(state, arguments)
  local ok, seen = target:called_with(unpack(rest, 1, rest.n))
  state.compared = { seen, rest }
  return ok
end, "assertion.called_with.positive", "assertion.called_with.negative")
register("assertion", "returned_with", function(state, arguments)
  local target, rest = spyOf(state, arguments)
  local ok, seen = target:returned_with(unpack(rest, 1, rest.n))
  state.compared = { seen, rest }
  return ok
end, "assertion.returned_with.positive", "assertion.returned_with.negative")

-- The message of a failed assertion: the assertion's template filled with the
-- arguments as luassert shows them, after the test's own message when it gave one.
local function failureMessage(details, entry, arguments, negated)
  local key = negated and entry.negative or entry.positive
  local values
  if details.counts then
    values = { n = 2, details.counts[1], details.counts[2] }
  elseif details.compared then
    local function list(given)
      if given == nil then return "(none)" end
      local shown = {}
      for index = 1, given.n do shown[index] = described(given[index]) end
      return concat(shown, ", ")
    end
    values = { n = 2, list(details.compared[1]), list(details.compared[2]) }
  elseif details.caught ~= nil or key == "assertion.error.negative" or key == "assertion.error.positive" then
    values = { n = 2, described(details.caught), details.expectedError or "(any error)" }
  elseif details.shown then
    values = details.shown
  else
    values = shownArguments(arguments)
  end
  local message = say(key, values) or "assertion failed!"
  if details.message ~= nil then message = tostring(details.message) .. "\n" .. message end
  return message
end

-- Words of a chain that only read well (`assert.is.equal`), and those that negate.
local modifiers = {
  is = function() end, are = function() end, was = function() end, has = function() end,
  does = function() end,
  ["not"] = function(state) state.positive = not state.positive end,
  -- Given arguments, as in `assert.message("why").is_true(x)` and `assert.spy(s)`.
  message = function(state, arguments) if arguments then state.message = arguments[1] end end,
  spy = function(state, arguments) if arguments then state.payload = arguments[1] end end,
}
modifiers.no, modifiers.stub = modifiers["not"], modifiers.spy

-- The keys a chain's words name, read from the end as luassert reads them: the longest
-- run of words that is a registered assertion is one key (`error_matches`,
-- `has_property`), and every other word must be a modifier.
local function keysOf(words)
  local keys, key = {}, nil
  local index = #words
  while index > 0 do
    key = key and (words[index] .. "_" .. key) or words[index]
    while index > 1 and assertions[words[index - 1] .. "_" .. key] do
      index = index - 1
      key = words[index] .. "_" .. key
    end
    if modifiers[key] or assertions[key] then
      table.insert(keys, 1, key)
      key = nil
    end
    index = index - 1
  end
  if key then error("luassert: unknown modifier/assertion: '" .. key .. "'", 3) end
  return keys
end

-- A chain being read: `assert.is_not.equal` is a state holding its words so far;
-- called, it runs the assertion they name, or (naming none, as `assert.spy(s)`) gives
-- its modifiers the arguments and goes on.
local State = {}
local function newState() return setmetatable({ words = {}, positive = true }, State) end
State.__index = function(state, key)
  if type(key) ~= "string" then return nil end
  for word in key:lower():gmatch("[^_]+") do state.words[#state.words + 1] = word end
  return state
end
State.__call = function(state, ...)
  local keys = keysOf(state.words)
  local entry
  for _, key in ipairs(keys) do entry = assertions[key] or entry end
  local arguments = pack(...)
  if entry == nil then
    state.words = {}
    for _, key in ipairs(keys) do
      if modifiers[key] then modifiers[key](state, arguments) end
    end
    return state
  end
  for _, key in ipairs(keys) do
    if modifiers[key] then modifiers[key](state) end
  end
  local details = { spy = rawget(state, "payload"), message = rawget(state, "message") }
  local holds = entry.body(details, arguments, 2)
  if (not holds) == state.positive then error(failureMessage(details, entry, arguments, not state.positive), 2) end
  return ...
end

local luassert = setmetatable({}, {
  __metatable = "luassert (locked)",
  -- Called, it is Lua's assert: every argument comes back when the first holds.
  __call = function(_, ...)
    if select("#", ...) == 0 then error("bad argument #1 to 'assert' (value expected)", 2) end
    local value = ...
    if not value then
      local message = select("#", ...) >= 2 and (select(2, ...)) or "assertion failed!"
      error(message, 2)
    end
    return ...
  end,
  __index = function(_, key)
    if key == "register" then
      return function(_, kind, name, body, positive, negative)
        if kind == "modifier" then
          modifiers[name:lower()] = function(state, arguments) body(state, arguments or {}, 2) end
        else
          register(kind, name:lower(), body, positive, negative)
        end
      end
    elseif key == "set_parameter" or key == "get_parameter" or key == "add_formatter"
      or key == "remove_formatter" then
      return function() end
    end
    return newState()[key]
  end,
})

local matchLibrary = library("luassert.match", match)

return {
  globals = { assert = luassert, spy = spy, stub = stub, mock = mockModule, match = matchLibrary },
  -- What `require` gives a spec for busted's own modules.
  modules = {
    luassert = luassert, ["luassert.spy"] = spy, ["luassert.stub"] = stub, ["luassert.mock"] = mockModule,
    ["luassert.match"] = matchLibrary, say = say, ["luassert.say"] = say,
  },
  deepEqual = deepEqual,
  -- Spies and stubs a test put on objects are taken off after it.
  revert = function()
    for index = #madeThisTest, 1, -1 do madeThisTest[index]:revert() end
    madeThisTest = {}
  end,
}
