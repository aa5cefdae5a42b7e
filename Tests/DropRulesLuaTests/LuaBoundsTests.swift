import DropRulesLuaTestSupport
import Foundation
import Testing

@testable import DropRulesLua

/// Attacks on the limits: each of these hung, crashed or ran far past its budget before
/// the limits covered coroutines, C functions and copies into Swift.
@Suite("Lua bounds: work in coroutines and C functions, copies into Swift")
struct LuaBoundsTests {
  /// The default limits, with a deadline long enough that a loaded machine never meets
  /// it first in the tests that aim at the instruction budget.
  private static let budgetOnly = LuaLimits(maxTime: .seconds(30))

  private func expectStopped(
    _ source: String, limits: LuaLimits = budgetOnly, by kind: LuaError.Kind? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let lua = try LuaRuntime(limits: limits)
    let error = #expect(throws: LuaError.self, sourceLocation: sourceLocation) { try lua.evaluate(source) }
    if let kind { #expect(error?.kind == kind, sourceLocation: sourceLocation) }
    // The runtime is still usable, with a balanced stack.
    #expect(try lua.evaluateFirst("return 1 + 1") == .integer(2), sourceLocation: sourceLocation)
    #expect(lua.stackDepth == 0, sourceLocation: sourceLocation)
  }

  @Test(
    "C functions linear in a long string they scan pay for it (the red team's second pass over issue 20)",
    arguments: [
      // tonumber of a 16 MiB numeral, in a loop: 4.6 s past the deadline before.
      "local s = string.rep('7', 16 << 20) for _ = 1, 1000 do tonumber(s) end",
      // string.packsize over a 16 MiB format of spaces: 20.8 s before.
      "local f = string.rep(' ', 16 << 20) for _ = 1, 1000 do string.packsize(f) end",
      "local f = string.rep(' ', 16 << 20) for _ = 1, 1000 do string.pack(f) end",
      // A C comparator does its work where no hook counts it: 14.3 s before.
      """
      local a, b = string.rep('a', 8 << 20), string.rep('a', 8 << 20)
      local t = {}
      for i = 1, 2000 do t[i] = i % 2 == 0 and a or b end
      table.sort(t, rawequal)
      """,
    ])
  func linearInTheirStrings(source: String) throws {
    try expectStopped(source, by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("a loop of long instructions (comparing strings of 16 MiB of NUL bytes) stops near the deadline")
  func longInstructions() throws {
    // Lua compares such strings piece by piece with strcoll: tens of milliseconds each,
    // and a thousand of them before the hook's first clock reading ran 24 s past a 250 ms
    // deadline. The watchdog interrupts the call at its next instruction.
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .milliseconds(250)))
    let started = ContinuousClock.now
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate(
        """
        local s = string.rep("\\0", 16 << 20)
        local t = s .. ""
        local n = 0
        for _ = 1, 1000 do if s < t then n = n + 1 end end
        """)
    }
    #expect(error?.kind == .timeLimit(250))
    // Generous for a loaded machine; without the watchdog this took tens of seconds.
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(try lua.evaluateFirst("return 1 + 1") == .integer(2))
  }

  @Test("short coroutines are counted: 100,000 of them do not run free")
  func shortCoroutines() throws {
    try expectStopped(
      """
      for _ = 1, 100000 do coroutine.wrap(function() for _ = 1, 50 do end end)() end
      """, by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("nested coroutines, each below the hook's step, are stopped")
  func nestedCoroutines() throws {
    try expectStopped(
      """
      local function spin(depth)
        for _ = 1, 300 do end
        if depth == 0 then return end
        for _ = 1, 10 do coroutine.resume(coroutine.create(spin), depth - 1) end
      end
      spin(9)
      """, by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("a coroutine kept and resumed across calls is counted in each")
  func keptCoroutine() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 50_000))
    let environment = try lua.newEnvironment()
    let chunk = try lua.load(
      source: """
        kept = kept or coroutine.create(function() while true do for _ = 1, 90 do end coroutine.yield() end end)
        for _ = 1, 100000 do coroutine.resume(kept) end
        """, chunkName: "=kept", environment: environment)
    for _ in 0..<2 {
      let error = #expect(throws: LuaError.self) { try lua.call(chunk) }
      #expect(error?.kind == .instructionLimit(50_000))
    }
  }

  @Test(
    "backtracking patterns pay for their steps",
    arguments: [
      "string.find(string.rep('a', 400), '.-.-.-b')",
      "string.match(string.rep('a', 2000), '.-.-.-b')",
      "for _ in string.gmatch(string.rep('a', 2000), '.-.-.-b') do end",
      "string.gsub(string.rep('a', 2000), '.-.-.-b', '')",
      "local s = string.rep('a', 2000) return s:find('.-.-.-b')",
      "return ('a'):rep(3000):match('(a*)*b')",
    ])
  func backtrackingPatterns(source: String) throws {
    try expectStopped(source, by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("a plain find of a long needle in a long haystack pays for its comparisons")
  func plainFind() throws {
    try expectStopped(
      """
      local haystack = string.rep('a', 1 << 22)
      local needle = string.rep('a', 1 << 21) .. 'b'
      for _ = 1, 1000 do haystack:find(needle, 1, true) end
      """, by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("table.move and table.sort pay for the elements they touch")
  func tableFunctions() throws {
    try expectStopped("table.move({}, 1, 1e13, 1, {})", by: .instructionLimit(LuaLimits.defaultMaxInstructions))
    try expectStopped(
      "local t = {} for i = 1, 200000 do t[i] = -i end table.sort(t)",
      by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("table.move and table.sort check and name their arguments as Lua's do, before they pay for anything")
  func tableErrorsAsLua() throws {
    // The same script in the sandbox and in a plain Lua state; positions are kept as
    // line numbers only, since the two name their chunks differently.
    let script = """
      local maxI, minI = math.maxinteger, math.mininteger
      local stopped = setmetatable({}, { __newindex = function() error("stop", 0) end })
      local messages = {}
      local function note(ok, message)
        local text = type(message) == "table" and "a table" or tostring(message)
        messages[#messages + 1] = tostring(ok) .. " " .. text:gsub("^[^\\n]-:(%d+): ", "line %1: ")
      end
      for _, arguments in ipairs({ { {}, 0, maxI, 1 }, { {}, 1, maxI, 2 }, { {}, minI, -1, 1 }, { stopped, 1, maxI, 0 },
        { nil, 1, 2, 3 }, { {}, 1, 2, 3, 42 }, { {}, 1, 0, 1 } }) do
        note(pcall(table.move, table.unpack(arguments, 1, 5)))
      end
      note(pcall(table.sort, nil))
      note(pcall(table.sort, { 3, 1, 2 }, 42))
      note(pcall(table.sort, { 1, "x" }))
      note(pcall(function() table.sort(nil) end))
      note(pcall(function() table.move({}, 0, maxI, 1) end))
      note(pcall(function() table.sort({ 3, 2, 1 }, function() return true end) end))
      return table.concat(messages, "\\n")
      """
    let lua = try LuaRuntime()
    let sandboxed = try lua.evaluateFirst(script).stringValue ?? ""
    let own = String(decoding: try #require(try PlainLua().run(script).first), as: UTF8.self)
    #expect(sandboxed == own)
    #expect(own.contains("bad argument #3 to 'table.move' (too many elements to move)"))
  }

  @Test(
    "table functions pay for loops no instruction runs: a __len that reports 2^50, a long __index chain",
    arguments: [
      "local t = setmetatable({}, { __len = function() return 1 << 50 end }) table.insert(t, 1, 'x')",
      "local t = setmetatable({}, { __len = function() return 1 << 50 end }) table.remove(t, 1)",
      "local t = setmetatable({}, { __len = function() return 1 << 50 end }) return table.concat(t, ',', 1, 2)"
        + " .. #table.concat(setmetatable({}, { __index = function() return 'x' end }), '', 1, 1 << 40)",
      "local root = {} for _ = 1, 1900 do root = setmetatable({}, { __index = root }) end "
        + "return select('#', table.unpack(root, 1, 500000))",
      "local root = setmetatable({}, { __index = function() return 'x' end }) "
        + "for _ = 1, 1900 do root = setmetatable({}, { __index = root }) end "
        + "return #table.concat(root, '', 1, 1 << 30)",
    ])
  func tableLoopsArePaid(source: String) throws {
    // Stopped by the budget, or by the deadline for a chain: either way within seconds.
    let started = ContinuousClock.now
    try expectStopped(source, limits: LuaLimits())
    #expect(ContinuousClock.now - started < .seconds(5))
  }

  @Test("compiling stops at the time limit: the parser runs no instruction the count hook could see")
  func compileDeadline() throws {
    let source = String(repeating: "x = 1\n", count: 600_000)
    let hurried = try LuaRuntime(limits: LuaLimits(maxTime: .milliseconds(1)))
    let started = ContinuousClock.now
    let error = #expect(throws: LuaError.self) { try hurried.load(source: source, chunkName: "=big") }
    #expect(error?.kind == .timeLimit(1))
    #expect(error?.message.contains("compiling took longer than the time limit") == true)
    #expect(ContinuousClock.now - started < .seconds(2))
    #expect(try hurried.evaluateFirst("return 1 + 1") == .integer(2))
    // With no time limit the same text compiles.
    _ = try LuaRuntime(limits: LuaLimits(maxTime: .zero)).load(source: source, chunkName: "=big")
  }

  @Test("an xpcall message handler never runs unbounded after a limit's error, which Lua raises where no hook runs")
  func xpcallHandlerAfterALimit() throws {
    let started = ContinuousClock.now
    try expectStopped(
      "xpcall(function() while true do end end, function() while true do end end)",
      limits: LuaLimits(), by: .instructionLimit(LuaLimits.defaultMaxInstructions))
    // The memory cap's error can be caught: the xpcall returns it, its handler skipped.
    let capped = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 8 << 20, maxTime: .seconds(30)))
    let answer = try capped.evaluateFirst(
      "local t = {} local ok = xpcall(function() while true do t[#t + 1] = ('x'):rep(1000) end end, "
        + "function() while true do end end) t = nil return ok")
    #expect(answer == .boolean(false))
    #expect(ContinuousClock.now - started < .seconds(10))
    // An ordinary error still reaches the rule's handler.
    let lua = try LuaRuntime()
    let handled = try lua.evaluate(
      "return xpcall(function() error('boom', 0) end, function(m) return 'handled ' .. m end)")
    #expect(handled == [.boolean(false), "handled boom"])
  }

  @Test(
    "utf8 functions and sorts of long strings pay for the bytes they scan",
    arguments: [
      "local s = ('é'):rep(8 << 20) for _ = 1, 1000 do utf8.len(s) end",
      "local s = ('é'):rep(8 << 20) for _ = 1, 1000 do utf8.codepoint(s, 1, -1) end",
      "local long = ('x'):rep(1 << 20) local t = {} for i = 1, 2000 do t[i] = long .. i end "
        + "for _ = 1, 100 do table.sort(t) end",
    ])
  func scanningIsPaid(source: String) throws {
    let started = ContinuousClock.now
    try expectStopped(source, limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .milliseconds(250)))
    #expect(ContinuousClock.now - started < .seconds(3))
  }

  @Test("a narrow utf8 range of a long string pays for its own bytes only")
  func narrowRangesAreCheap() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxMemory: 256 << 20))
    let answer = try lua.evaluateFirst(
      """
      local s = ('é'):rep(8 << 20)
      local total = 0
      for i = 1, 2000 do total = total + utf8.codepoint(s, 1) + utf8.len(s, 1, 8) + utf8.len(s, -4) end
      return total
      """)
    #expect(answer == .integer(2000 * (233 + 4 + 2)))
  }

  @Test("an empty repetition is made at once, however many times it repeats")
  func emptyRepetitions() throws {
    let lua = try LuaRuntime()
    let started = ContinuousClock.now
    let answers = try lua.evaluate(
      "return ('').rep('', 1e15), string.rep('', math.maxinteger, ''), ('x'):rep(0), ('ab'):rep(2, ','), #('x'):rep(3)")
    #expect(answers == ["", "", "", "ab,ab", .integer(3)])
    #expect(ContinuousClock.now - started < .seconds(2))
    #expect(throws: LuaError.self) { try lua.evaluate("return string.rep()") }
  }

  @Test("a character set of a megabyte pays for its bytes at every position it is tried")
  func hugeCharacterSets() throws {
    let started = ContinuousClock.now
    try expectStopped(
      "local set = '[' .. ('a'):rep(1 << 20) .. ']' local s = ('b'):rep(10000) for _ = 1, 100 do s:find(set) end",
      // A deadline far off: on a loaded machine the default 250 ms came first, and the
      // test is about what the set costs in instructions.
      limits: LuaLimits(maxTime: .seconds(10)), by: .instructionLimit(LuaLimits.defaultMaxInstructions))
    #expect(ContinuousClock.now - started < .seconds(3))
  }

  @Test("load pays for the source it compiles")
  func loadCharges() throws {
    try expectStopped(
      "local source = 'return ' .. string.rep('1 + ', 1 << 20) .. '1' for _ = 1, 100 do load(source) end",
      limits: LuaLimits(maxMemory: 256 << 20, maxTime: .seconds(30)),
      by: .instructionLimit(LuaLimits.defaultMaxInstructions))
  }

  @Test("the deadline stops a loop the instruction budget would let run")
  func deadlineStopsLoop() throws {
    try expectStopped(
      "while true do end", limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .milliseconds(100)),
      by: .timeLimit(100))
  }

  @Test("the deadline stops a loop of large string.rep calls")
  func deadlineStopsLargeAllocations() throws {
    try expectStopped(
      "for _ = 1, 1e9 do local s = string.rep('x', 16 << 20) end",
      limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .milliseconds(100)), by: .timeLimit(100))
  }

  @Test("the deadline stops a loop whose every instruction works on large strings")
  func deadlineStopsSlowInstructions() throws {
    let started = ContinuousClock.now
    try expectStopped(
      """
      local a = string.rep('x', 16 << 20) .. 'a'
      local b = string.rep('x', 16 << 20) .. 'b'
      local n = 0
      while true do if a == b then n = n + 1 end end
      """, limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .milliseconds(100)), by: .timeLimit(100))
    // Not a timing assertion: without the deadline this loop runs for hours.
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test("a pcall in the rule cannot swallow a passed deadline")
  func deadlineCannotBeSwallowed() throws {
    try expectStopped(
      "while true do pcall(function() while true do end end) end",
      limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .milliseconds(50)), by: .timeLimit(50))
  }

  @Test("odd arguments to the bounded functions fail as Lua's own do, without a crash")
  func oddArguments() throws {
    let lua = try LuaRuntime(limits: Self.budgetOnly)
    let results = try lua.evaluate(
      """
      local outcomes = {}
      local function try(name, f, ...) outcomes[#outcomes + 1] = name .. "=" .. tostring((pcall(f, ...))) end
      try("move nan", table.move, {}, 0 / 0, 0 / 0, 1, {})
      try("move inf", table.move, {}, 1, math.huge, 1, {})
      try("sort nil", table.sort, nil)
      try("sort bad order", table.sort, { 3, 1, 2 }, 5)
      try("load number", load, 42)
      local pieces = { "return ", 7 }
      try("load reader", function() assert(load(function() return table.remove(pieces, 1) end)() == 7) end)
      try("wrap number", coroutine.wrap, 5)
      try("resume itself", function() return coroutine.resume(coroutine.running()) end)
      try("resume dead", function()
        local co = coroutine.create(function() end)
        coroutine.resume(co)
        local ok = coroutine.resume(co)
        assert(ok == false)
      end)
      try("gsub yields", function()
        local co = coroutine.wrap(function() return ("ab"):gsub(".", function() coroutine.yield() end) end)
        co()
      end)
      try("gsub recurses", function() return ("abc"):gsub(".", function(c) return (c:gsub(".", "%0%0")) end) end)
      try("gmatch kept", function()
        local next = ("a1b2"):gmatch("%d")
        collectgarbage("count")
        assert(next() == "1" and next() == "2" and next() == nil)
      end)
      try("find huge init", string.find, "abc", "b", math.maxinteger)
      try("find tiny init", string.find, "abc", "b", math.mininteger)
      return table.concat(outcomes, " ")
      """)
    #expect(
      results.first
        == .string(
          "move nan=false move inf=false sort nil=false sort bad order=false load number=true load reader=true "
            + "wrap number=false resume itself=true resume dead=true gsub yields=false gsub recurses=true "
            + "gmatch kept=true find huge init=true find tiny init=true"))
  }
}
