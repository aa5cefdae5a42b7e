import DropRulesTestSupport
import Testing

@testable import DropRulesTesting

/// A test file runs as busted runs a spec: loaded once, its tests in order in that
/// state, `setup`/`teardown` once around the tests of their group that run.
@Suite("A test file runs as a busted spec does")
struct SpecShapeTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
    try directory.write(
      "box.lua",
      """
      return { box = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, box) box:insert(info.items) return true end,
      } }
      """)
  }

  func run(_ source: String, runner: RuleTestRunner = RuleTestRunner()) throws -> [TestCaseResult] {
    runner.run(files: [try directory.write("box_test.lua", source)])
  }

  /// The spec from the issue: two `it`s in a `describe` that bump an upvalue see 1 and 2.
  static let counter = """
    local log = {}
    setup(function() log[#log + 1] = "file setup" end)
    teardown(function() print("file teardown after: " .. table.concat(log, ", ")) end)
    describe("counter", function()
      local count = 0
      lazy_setup(function() log[#log + 1] = "counter setup" end)
      before_each(function() count = count + 1 end)
      it("sees 1", function() expect(count):toBe(1) end)
      it("sees 2", function() expect(count):toBe(2) end)
      describe("nested", function()
        teardown(function() log[#log + 1] = "nested teardown" end)
        it("sees 3", function() expect(count):toBe(3) end)
      end)
      lazy_teardown(function() log[#log + 1] = "counter teardown" end)
    end)
    it("runs after the groups", function()
      expect(log):toEqual({ "file setup", "counter setup", "nested teardown", "counter teardown" })
    end)
    """

  @Test("the tests of a describe share its upvalues; setup and teardown run once around their group, nested")
  func sharedUpvalues() throws {
    let results = try run(Self.counter)
    #expect(results.map(\.status) == [.passed, .passed, .passed, .passed], "\(results.map(\.failures))")
    #expect(
      results.last?.printed.lines == [
        "file teardown after: file setup, counter setup, nested teardown, counter teardown"
      ])
  }

  @Test("a filter runs the setup of the groups it picks from, and the teardown after the last test it runs there")
  func filteredGroups() throws {
    let results = try run(Self.counter, runner: RuleTestRunner(filter: "nested"))
    #expect(results.map(\.name) == ["counter nested sees 3"])
    // The before_each of `counter` ran once, for the one test: count is 1, not 3.
    #expect(results.first?.failures.first?.hasSuffix("expected 3, got 1") == true, "\(results.map(\.failures))")
    #expect(
      results.first?.printed.lines == [
        "file teardown after: file setup, counter setup, nested teardown, counter teardown"
      ])
  }

  @Test("shuffled, the tests still share one state: setup runs before the first to run, teardown after the last")
  func shuffledGroups() throws {
    let runner = RuleTestRunner()
    runner.order = TestOrder(seed: 7)
    let results = try run(
      """
      local events = {}
      describe("group", function()
        setup(function() events[#events + 1] = "setup" end)
        teardown(function() print(table.concat(events, " ")) end)
        for n = 1, 5 do
          it("test " .. n, function() events[#events + 1] = tostring(n) end)
        end
      end)
      """, runner: runner)
    #expect(results.allSatisfy { $0.status == .passed })
    let order = results.map { String($0.name.last!) }
    #expect(order != ["1", "2", "3", "4", "5"], "seed 7 reorders them")
    #expect(results.last?.printed.lines == ["setup " + order.joined(separator: " ")])
  }

  @Test("a setup that raises fails every test of its group with its message, and its teardown does not run")
  func failingSetup() throws {
    let results = try run(
      """
      describe("database", function()
        setup(function() error("no database") end)
        teardown(function() print("teardown ran") end)
        it("a", function() end)
        it("b", function() end)
      end)
      it("outside", function() end)
      """)
    #expect(results.map(\.status) == [.failed, .failed, .passed])
    for result in results.prefix(2) {
      #expect(result.failures == ["setup of 'database' failed: \(result.file):2: no database"])
      #expect(result.printed.lines.isEmpty)
    }
  }

  @Test("a teardown that raises fails the last test of its group")
  func failingTeardown() throws {
    let results = try run(
      """
      teardown(function() error("cleanup broke") end)
      it("first", function() end)
      it("last", function() end)
      pending("later")
      """)
    #expect(results.map(\.status) == [.passed, .failed, .pending])
    #expect(results[1].failures.first?.hasSuffix(":1: cleanup broke") == true, "\(results[1].failures)")
  }

  @Test(
    "tests, hooks and properties register only while the file loads; a registration in a test fails it",
    arguments: [
      // pending() inside a test is busted's way to mark it pending (BustedSpecTests).
      "it(\"x\", function() end)", "describe(\"x\", function() end)", "before_each(function() end)",
      "setup(function() end)",
    ])
  func registrationInATest(_ registration: String) throws {
    let results = try run("it(\"registers\", function() \(registration) end)")
    #expect(results.map(\.status) == [.failed])
    #expect(
      results.first?.failures.first?.contains(
        "box_test.lua:1: ") == true
        && results.first?.failures.first?.contains(
          "registers only while the file loads (at its top level or in a describe), not in a test") == true,
      "\(results.map(\.failures))")
  }

  @Test("scenario{} at the top level is a load error: every test would share its rule state")
  func topLevelScenario() throws {
    let results = try run(
      """
      local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      it("uses it", function() sim:items("a") end)
      """)
    #expect(results.map(\.status) == [.loadError])
    #expect(
      results.first?.failures.first?.contains(
        "box_test.lua:1: scenario{} makes a rule host for one test: call it in the test (or in before_each)") == true,
      "\(results.map(\.failures))")
  }

  @Test("every scenario{} is a fresh rule host: what one test's rules kept is not in the next test's")
  func freshRuleStates() throws {
    try directory.write(
      "counting.lua",
      """
      local drops = 0
      return { box = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, box) drops = drops + 1 box:insert(info.items) print("drops", drops) return true end,
      } }
      """)
    let results = try run(
      """
      local function sim()
        return scenario { rules = { "counting.lua" }, board = { targets = {
          { id = "a", type = "box", frame = { 0, 0, 10, 10 }, items = { { id = "x" } } },
          { id = "b", type = "box", frame = { 20, 0, 10, 10 } },
        } } }
      end
      for n = 1, 2 do
        it("drops once " .. n, function()
          local drag = sim():drag({ "x" })
          drag:over("b")
          expect(drag:drop()):toBe("performed")
        end)
      end
      """)
    #expect(results.map(\.status) == [.passed, .passed], "\(results.map(\.failures))")
    #expect(results.map(\.printed.lines) == [["drops\t1"], ["drops\t1"]])
  }

  @Test("a simulation kept from one test is refused in the next, saying how to make one")
  func simulationKeptAcrossTests() throws {
    let results = try run(
      """
      local kept
      it("makes one", function()
        kept = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end)
      it("uses it later", function() kept:items("a") end)
      """)
    #expect(results.map(\.status) == [.passed, .failed])
    #expect(
      results.last?.failures.first?.contains("this simulation belongs to another test: each test makes its own") == true
    )
  }
}
