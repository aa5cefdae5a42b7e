import DropRulesLuaTestSupport
import Foundation
import Testing

@testable import DropRulesLua

/// A runtime that counts lazily (a test file's own code) sets its count hook only once a
/// call has run a few milliseconds; every way a call can run on is still stopped, by the
/// budget once counted, or by the deadline.
@Suite("Lazily counted calls")
struct LazyCountingTests {
  static let runaways = [
    "while true do end",
    "coroutine.wrap(function() while true do end end)()",
    // Armed while the coroutine runs: the resumer must count from then on too.
    "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end",
    "while true do pcall(function() while true do end end) end",
    "local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end",
    "local function f() return f() end f()",
    // To-be-closed variables of a coroutine resumed before the hook was set, run later
    // by a close, where only the coroutine's own hook reaches them (red team, issue 23).
    """
    local f = coroutine.wrap(function()
      local x <close> = setmetatable({}, { __close = function() while true do end end })
      error("boom")
    end)
    pcall(f)
    """,
    """
    local co = coroutine.create(function()
      local x <close> = setmetatable({}, { __close = function() while true do end end })
      coroutine.yield()
    end)
    coroutine.resume(co)
    coroutine.close(co)
    """,
  ]

  static func lazyRuntime(maxTime: Duration = .seconds(20)) throws -> LuaRuntime {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1_000_000, maxTime: maxTime))
    lua.countsLazily = true
    #expect(lua.countsLazily)
    return lua
  }

  @Test("a runaway call is stopped by the budget once counted, long before its deadline", arguments: runaways)
  func runawaysStop(_ source: String) throws {
    let lua = try Self.lazyRuntime()
    let started = ContinuousClock.now
    let error = #expect(throws: LuaError.self) { try lua.evaluate(source) }
    #expect(error?.kind == .instructionLimit(1_000_000), "\(String(describing: error))")
    #expect(ContinuousClock.now - started < .seconds(10))
    // The runtime goes on, and a later runaway is stopped again.
    #expect(try lua.evaluateFirst("local n = 0 for i = 1, 100 do n = n + i end return n") == .integer(5050))
    #expect(throws: LuaError.self) { try lua.evaluate(source) }
  }

  @Test("on a thread of Swift's cooperative pool, whose signals start blocked, a runaway is stopped too")
  func runawayOnPoolThread() async throws {
    let kind = await Task.detached { () -> LuaError.Kind? in
      do {
        let lua = try Self.lazyRuntime()
        try lua.evaluate("while true do end")
        return nil
      } catch let error as LuaError {
        return error.kind
      } catch {
        return nil
      }
    }.value
    #expect(kind == .instructionLimit(1_000_000))
  }

  @Test("a short call runs without the count hook; an eager runtime counts every instruction of it")
  func shortCallsRunUncounted() throws {
    let loop = "local n = 0 for i = 1, 2000 do n = n + i end return n"
    let eager = try LuaRuntime(limits: LuaLimits(maxTime: .seconds(20)))
    _ = try eager.evaluateFirst(loop)
    #expect(eager.instructionsCounted >= 4_000)
    let lua = try Self.lazyRuntime()
    // A call of microseconds is armed only if its thread stalls for milliseconds in it:
    // of five, one at least runs uncounted however loaded the machine is.
    var counts: [Int] = []
    for _ in 0..<5 {
      _ = try lua.evaluateFirst(loop)
      counts.append(lua.instructionsCounted)
    }
    #expect(counts.contains(0), "\(counts)")
  }

  @Test(
    "a budget spent in a coroutine's __close is raised in its closer, which cannot return as if nothing happened",
    arguments: [false, true])
  func spentInCloseIsRaised(lazily: Bool) throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 100_000, maxTime: .seconds(20)))
    lua.countsLazily = lazily
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate(
        """
        local co = coroutine.create(function()
          local x <close> = setmetatable({}, { __close = function() while true do end end })
          coroutine.yield()
        end)
        coroutine.resume(co)
        local ok = coroutine.close(co)
        return "move"
        """)
    }
    #expect(error?.kind == .instructionLimit(100_000))
  }

  @Test("without a deadline, there is no watchdog to arm the hook: calls count from their first instruction")
  func noDeadlineCountsExactly() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1_000, maxTime: .zero))
    lua.countsLazily = true
    let error = #expect(throws: LuaError.self) { try lua.evaluate("for i = 1, 100000 do end") }
    #expect(error?.kind == .instructionLimit(1_000))
  }

  @Test("memory is capped from the first allocation, armed or not")
  func memoryCapHolds() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxMemory: 4 << 20, maxTime: .seconds(20)))
    lua.countsLazily = true
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("local t = {} while true do t[#t + 1] = ('x'):rep(1000) .. #t end")
    }
    #expect(error?.kind == .memoryLimit(4 << 20))
  }
}
