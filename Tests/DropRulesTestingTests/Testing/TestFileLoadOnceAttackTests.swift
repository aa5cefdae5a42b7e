import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesTesting

/// Red-team attacks on test files that load once (RuleTestFile, testing.lua): a test must
/// not make a later test pass falsely, and no test file may crash or hang the runner.
/// Each test asserts the correct behaviour: one that fails shows a hole.
@Suite("Red team: a test file loads once")
struct TestFileLoadOnceAttackTests {
  static let box =
    #"return { box = { dropUpdated = function() return "move" end, performDrop = function() return true end } }"#

  func run(
    _ source: String, limits: LuaLimits = LuaLimits(maxInstructions: 20_000, maxMemory: 8 << 20),
    filter: String? = nil, order: TestOrder? = nil
  ) throws -> [TestCaseResult] {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", Self.box)
    let file = try directory.write("box_test.lua", source)
    let runner = RuleTestRunner(limits: limits, filter: filter)
    runner.order = order
    return runner.run(files: [file])
  }

  @Test("a test that rewrites a matcher cannot make a later test's failing expectation pass")
  func matcherTamper() throws {
    let results = try run(
      #"""
      test("rewrites toBe", function()
        local e = expect(nil)
        e:toBeNil()
        local Expectation = getmetatable(e)
        Expectation.toBe = function(self) self.checked.done = true end
      end)
      test("expects 1 to be 2", function() expect(1):toBe(2) end)
      """#)
    #expect(results.count == 2)
    #expect(results.last?.status == .failed, "\(results.map(\.failures))")
  }

  @Test("a test that rewrites drag:drop cannot skip a later test's property check or its real drop")
  func dropTamper() throws {
    let results = try run(
      #"""
      property("the box stays empty", function(board) return #board.targets.b.items == 0, "b holds an item" end)
      local function sim()
        return scenario { board = { targets = {
          { id = "a", type = "box", frame = { 0, 0, 100, 100 }, items = { { id = "x", name = "X" } } },
          { id = "b", type = "box", frame = { 100, 0, 100, 100 } },
        } } }
      end
      test("rewrites drop", function()
        local s = sim()
        local drag = s:drag("x")
        local Drag = getmetatable(drag)
        expect(type(Drag)):toBe("table")
        Drag.drop = function() return "performed" end
        drag:cancel()
      end)
      test("drops into b, which breaks the property", function()
        local s = sim()
        local drag = s:drag("x")
        drag:over("b")
        expect(drag:drop()):toBe("performed")
        expect(s:items("b")):toEqual({ "x" })
      end)
      """#)
    #expect(results.count == 2)
    #expect(results.last?.status == .failed, "\(results.map(\.failures))")
  }

  @Test("a describe suspended in a coroutine does not put the later top-level tests in its group")
  func suspendedDescribe() throws {
    let results = try run(
      #"""
      local resume = coroutine.wrap(function()
        describe("suspended", function()
          setup(function() error("the suspended group's setup ran") end)
          coroutine.yield()
        end)
      end)
      resume()
      test("top", function() expect(1):toBe(1) end)
      """#)
    // Either the load fails, or "top" is a top-level test that passes.
    let loadFailed = results.count == 1 && results.first?.status == .loadError
    let topLevel = results.map(\.name) == ["top"] && results.first?.status == .passed
    #expect(loadFailed || topLevel, "\(results.map { ($0.name, $0.status, $0.failures) })")
  }

  @Test("a teardown that registers fails the group's last test, and the file goes on")
  func teardownRegisters() throws {
    let results = try run(
      #"""
      describe("g", function()
        teardown(function() it("late", function() end) end)
        it("one", function() expect(1):toBe(1) end)
      end)
      test("after", function() expect(2):toBe(2) end)
      """#)
    #expect(results.map(\.name) == ["g one", "after"])
    #expect(results.map(\.status) == [.failed, .passed])
    #expect(results.first?.failures.joined().contains("registers only while the file loads") == true)
  }

  @Test("a setup that never returns fails its group's tests, bounded, and the tests outside run")
  func endlessSetup() throws {
    let started = Date()
    let results = try run(
      #"""
      describe("spins", function()
        setup(function() while true do end end)
        it("one", function() end)
        it("two", function() end)
      end)
      test("outside", function() expect(1):toBe(1) end)
      """#)
    #expect(results.map(\.status) == [.failed, .failed, .passed], "\(results.map(\.failures))")
    #expect(results.first?.failures.first?.contains("setup of 'spins' failed") == true)
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test("a coroutine kept from one test that registers or drives an old simulation raises in the next")
  func coroutineOutlivesTest() throws {
    let results = try run(
      #"""
      local later
      test("leaves a coroutine", function()
        local s = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
        later = coroutine.wrap(function()
          coroutine.yield()
          it("registered late", function() end)
        end)
        later()
        later2 = coroutine.wrap(function() coroutine.yield() return s:items("a") end)
        later2()
      end)
      test("resumes it", function()
        expect(later):toRaise("registers only while the file loads")
        expect(later2):toRaise()
      end)
      """#)
    #expect(results.map(\.name) == ["leaves a coroutine", "resumes it"])
    #expect(results.map(\.status) == [.passed, .passed], "\(results.map(\.failures))")
  }

  static let stoppedInGroup = #"""
    describe("g", function()
      local setups, fixture = 0, nil
      setup(function() setups = setups + 1; fixture = "ready"; print("setup " .. setups) end)
      teardown(function() print("teardown " .. setups) end)
      it("first", function() expect(fixture):toBe("ready") end)
      it("stops", function() while true do end end)
      it("third", function() expect(fixture):toBe("ready"); expect(setups):toBe(1) end)
    end)
    describe("h", function()
      it("fourth", function() expect(true):toBe(true) end)
    end)
    """#

  @Test("after a limit stops a test, the next load sets its group up again under the same names")
  func reloadKeepsPromises() throws {
    let results = try run(Self.stoppedInGroup)
    #expect(results.map(\.name) == ["g first", "g stops", "g third", "h fourth"])
    #expect(results.map(\.status) == [.passed, .failed, .passed, .passed], "\(results.map(\.failures))")
    #expect(results[0].printed.lines == ["setup 1"])
    #expect(results[2].printed.lines == ["setup 1", "teardown 1"])
    #expect(results[3].printed.lines.isEmpty)
  }

  @Test("--filter runs the setup and teardown of the chosen tests' groups only, once")
  func filterHooks() throws {
    let source = #"""
      setup(function() print("file setup") end)
      teardown(function() print("file teardown") end)
      describe("g1", function()
        setup(function() print("g1 setup") end)
        teardown(function() print("g1 teardown") end)
        it("a", function() end)
      end)
      describe("g2", function()
        setup(function() print("g2 setup") end)
        teardown(function() print("g2 teardown") end)
        it("b", function() end)
        it("chosen c", function() end)
        it("chosen d", function() end)
      end)
      """#
    let results = try run(source, filter: "chosen")
    #expect(results.map(\.name) == ["g2 chosen c", "g2 chosen d"])
    #expect(results.map(\.status) == [.passed, .passed])
    #expect(results.first?.printed.lines == ["file setup", "g2 setup"])
    #expect(results.last?.printed.lines == ["g2 teardown", "file teardown"])
  }

  @Test("--shuffle runs each group's setup once before its first test and teardown after its last", arguments: 1...4)
  func shuffleHooks(seed: UInt64) throws {
    var source = "local log = {}\n"
    for group in 1...4 {
      source += """
        describe("g\(group)", function()
          local setups, tornDown = 0, false
          setup(function() setups = setups + 1 end)
          teardown(function() tornDown = true; print("torn down g\(group)") end)

        """
      for test in 1...4 {
        source += "  it(\"t\(test)\", function() expect(setups):toBe(1); expect(tornDown):toBe(false) end)\n"
      }
      source += "end)\n"
    }
    let results = try run(source, order: TestOrder(seed: seed))
    #expect(results.count == 16)
    #expect(results.allSatisfy { $0.status == .passed }, "\(results.map(\.failures))")
    for group in 1...4 {
      let last = results.lastIndex { $0.name.hasPrefix("g\(group) ") }
      let tornDown = results.indices.filter { results[$0].printed.lines.contains("torn down g\(group)") }
      #expect(tornDown == [last].compactMap { $0 })
    }
  }

  @Test("a group name of megabytes (one character of a million combining marks) neither hangs --filter nor the report")
  func megabyteName() throws {
    let started = Date()
    let source = #"""
      describe("a" .. string.rep("\u{301}", 500000), function()
        for i = 1, 20 do it("t" .. i, function() end) end
      end)
      """#
    let filtered = try run(source, limits: LuaLimits(), filter: "nothing matches this")
    #expect(filtered.isEmpty)
    let results = try run(source, limits: LuaLimits())
    #expect(results.count == 20)
    let report = TestReport.text(results)
    #expect(report.utf8.count < 4 << 20)
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test("a file registering a hundred thousand tests runs them, bounded")
  func manyTests() throws {
    let started = Date()
    let results = try run(
      #"""
      for i = 1, 100000 do it("t" .. i, function() end) end
      """#, limits: LuaLimits())
    #expect(results.count == 100_000 || results.first?.status == .loadError)
    #expect(Date().timeIntervalSince(started) < 120)
  }
}
