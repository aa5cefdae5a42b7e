import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

@Suite("Lua limits")
struct LuaLimitsTests {
  /// The runtime still runs code after a failure, with a balanced stack.
  private func expectHealthy(_ lua: LuaRuntime) throws {
    #expect(lua.stackDepth == 0)
    #expect(try lua.evaluateFirst("local t = {} for i = 1, 1000 do t[i] = i end return #t") == .integer(1000))
    #expect(lua.stackDepth == 0)
  }

  @Test("an endless loop is stopped by the instruction budget")
  func endlessLoop() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 100_000))
    let error = #expect(throws: LuaError.self) { try lua.evaluate("while true do end") }
    #expect(error?.kind == .instructionLimit(100_000))
    #expect(error?.message.contains("instruction budget") == true)
    try expectHealthy(lua)
  }

  @Test("an endless loop inside coroutine.wrap is stopped too")
  func endlessLoopInCoroutine() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 100_000))
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("coroutine.wrap(function() while true do end end)()")
    }
    #expect(error?.kind == .instructionLimit(100_000))
    try expectHealthy(lua)
  }

  @Test("a rule cannot swallow the budget error with pcall")
  func pcallCannotSwallowBudget() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 100_000))
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("while true do pcall(function() while true do end end) end")
    }
    #expect(error?.kind == .instructionLimit(100_000))
    let resumed = #expect(throws: LuaError.self) {
      try lua.evaluate(
        """
        local co = coroutine.create(function() while true do end end)
        while true do coroutine.resume(co) end
        """)
    }
    #expect(resumed?.kind == .instructionLimit(100_000))
    try expectHealthy(lua)
  }

  @Test("the budget is per call: many short calls all succeed")
  func budgetIsPerCall() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 10_000))
    let environment = try lua.newEnvironment()
    let chunk = try lua.load(
      source: "local s = 0 for i = 1, 1000 do s = s + i end return s", chunkName: "=sum",
      environment: environment)
    for _ in 0..<50 { #expect(try lua.call(chunk) == [.integer(500_500)]) }
  }

  @Test("a 1 GiB string.rep hits the memory cap as a typed error")
  func hugeString() throws {
    let lua = try LuaRuntime()
    let error = #expect(throws: LuaError.self) { try lua.evaluate("return string.rep('x', 1 << 30)") }
    #expect(error?.kind == .memoryLimit(LuaLimits.defaultMaxMemory))
    try expectHealthy(lua)
  }

  @Test("a table of 200 strings of 1 MiB hits the memory cap as a typed error")
  func manyLargeStrings() throws {
    // Without a deadline: two hundred string.rep calls of 1 MiB may take longer than it.
    let lua = try LuaRuntime(limits: LuaLimits(maxTime: .zero))
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate(
        """
        local strings = {}
        for i = 1, 200 do strings[i] = string.rep(string.char(64 + i % 26), 1 << 20) end
        return #strings
        """)
    }
    #expect(error?.kind == .memoryLimit(LuaLimits.defaultMaxMemory))
    #expect(lua.memoryInUse < LuaLimits.defaultMaxMemory / 2)
    try expectHealthy(lua)
  }

  @Test("a rule may catch a refused allocation and carry on")
  func memoryErrorCanBeCaught() throws {
    let lua = try LuaRuntime()
    let value = try lua.evaluateFirst("local ok = pcall(string.rep, 'x', 1 << 30) return ok")
    #expect(value == false)
  }

  @Test("an error is a memory limit by what was raised, never by its text")
  func memoryLimitIsTyped() throws {
    let limits = LuaLimits(maxInstructions: 100_000_000, maxMemory: 8 << 20)
    // Growing a table step by step reaches the cap's reserve: the hook raises the limit.
    let grow = "local t = {} for i = 1, 1e7 do t[i] = i .. '' end"

    let reached = try LuaRuntime(limits: limits)
    let error = #expect(throws: LuaError.self) { try reached.evaluate(grow) }
    #expect(error?.kind == .memoryLimit(8 << 20))

    // A host refusal raises the cap's error and leaves the heap free, so what a rule does
    // next runs: the error raised again (as it is, or through coroutine.wrap, which puts
    // a position in front) is still the cap's; the rule's own error after catching it,
    // even one made where the cap's error was once kept, is the rule's.
    func refusing() throws -> (LuaRuntime, LuaValue) {
      let lua = try LuaRuntime(limits: limits)
      let refuse = lua.function { _ in throw LuaHostError.memoryLimit("memory limit of 8388608 bytes exceeded (held)") }
      return (lua, refuse)
    }
    for (source, kind) in [
      ("local ok, e = pcall(refuse) error(e, 0)", LuaError.Kind.memoryLimit(8 << 20)),
      ("coroutine.wrap(function() refuse() end)()", .memoryLimit(8 << 20)),
      ("local ok, e = pcall(coroutine.wrap(function() refuse() end)) error(e, 0)", .memoryLimit(8 << 20)),
      (
        "pcall(refuse) local t = {} for i = 1, 20000 do t[i] = ('q'):rep(40) .. i end t = nil "
          + "error(('q'):rep(40) .. '01', 0)", .runtime
      ),
    ] {
      let (lua, refuse) = try refusing()
      let error = #expect(throws: LuaError.self) { try lua.evaluate(source, globals: ["refuse": refuse]) }
      #expect(error?.kind == kind, "\(source)")
    }

    let caughtThenOwn = try LuaRuntime(limits: limits)
    let own = #expect(throws: LuaError.self) {
      try caughtThenOwn.evaluate("local ok = pcall(string.rep, 'x', 1 << 30) error('the rule gave up')")
    }
    #expect(own?.kind == .runtime)
    #expect(own?.message == "the rule gave up")

    let imitated = try LuaRuntime(limits: limits)
    let imitation = #expect(throws: LuaError.self) {
      try imitated.evaluate("error('memory limit of 8388608 bytes exceeded')")
    }
    #expect(imitation?.kind == .runtime, "the limit's words raised by a rule are the rule's error")
  }

  @Test("memory is collected before the cap refuses it: live data over half the cap, and plenty of garbage")
  func collectsBeforeRefusing() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 16 << 20, maxTime: .zero))
    let kept = try lua.evaluateFirst(
      """
      local live = {}
      for i = 1, 95 do live[i] = string.rep(string.char(65 + i % 26), 100000) .. i end
      for i = 1, 3000 do local garbage = string.rep("x", 50000) .. i end
      return #live
      """)
    #expect(kept == .integer(95))
  }

  @Test("an error message of megabytes is cut as a printed line is, and keeps its position and traceback")
  func longErrorMessagesAreCut() throws {
    let lua = try LuaRuntime()
    let error = #expect(throws: LuaError.self) { try lua.evaluate("\nerror(string.rep('x', 4 << 20))") }
    #expect(error?.line == 2)
    #expect((error?.message.utf8.count ?? .max) < 9_000)
    #expect(error?.message.hasSuffix("more bytes not shown)") == true, "\(error?.message.suffix(80) ?? "")")
    #expect(error?.traceback.contains("stack traceback:") == true)
  }

  @Test("limits are configurable")
  func configurableLimits() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1_000_000, maxMemory: 4 << 20))
    let error = #expect(throws: LuaError.self) { try lua.evaluate("return string.rep('x', 8 << 20)") }
    #expect(error?.kind == .memoryLimit(4 << 20))
    #expect(try lua.evaluateFirst("return #string.rep('x', 1 << 20)") == .integer(1 << 20))
  }
}
