import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRulesLua
@testable import DropRulesTesting

/// A test's load stops once its test is registered only where the file does nothing
/// after it but register tests: whatever else the file does after a test, that test's
/// load runs it.
@Suite("A test's load skips only registrations")
struct EarlyStopTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
    try directory.write("box.lua", "return { box = { dropUpdated = function() return 'move' end } }")
  }

  /// Loads `source` as a test file, runs every test, and gives their statuses and the
  /// first position whose load stops early.
  func run(_ source: String) throws -> (statuses: [TestCaseResult.Status], stopsFrom: Int?, stopped: Int) {
    let path = try directory.write("box_test.lua", source)
    let file = RuleTestFile(file: path, limits: LuaLimits(), coverage: nil)
    let tests = try file.load()
    let statuses = tests.map { file.run($0).status }
    return (statuses, file.stopsAfterRegistrationFrom, file.loadsStoppedEarly)
  }

  static func tests(_ count: Int, from first: Int = 1) -> String {
    (first..<first + count).map { #"test("t\#($0)", function() expect(seen()):toBe("all") end)"# }
      .joined(separator: "\n")
  }

  @Test("a file of helpers and then bare tests: every load after the first stops at its test")
  func bareTestsStop() throws {
    let result = try run("local function seen() return \"all\" end\n" + Self.tests(6))
    #expect(result.statuses == Array(repeating: .passed, count: 6))
    #expect(result.stopsFrom == 0)
    // The first test runs in the listing load itself.
    #expect(result.stopped == 5)
  }

  @Test(
    "what the file does after a test, its load runs",
    arguments: [
      // A global defined after the tests.
      "\(tests(3))\nfunction seen() return \"all\" end",
      // A local filled in after them.
      "local seen\n\(tests(3))\nseen = function() return \"all\" end",
      // A value set after them.
      "local mode = {}\nlocal function seen() return mode.value end\n\(tests(3))\nmode.value = \"all\"",
      // A call whose side effect the tests read.
      "local mode = {}\nlocal function seen() return mode.value end\n\(tests(3))\n"
        + "local function set() mode.value = \"all\" end\nset()",
      // A registration whose arguments come from a call that also sets what the tests read.
      "local mode = {}\nlocal function seen() return mode.value end\n\(tests(3))\n"
        + "local function make() mode.value = \"all\" return \"made\", function() end end\ntest(make())",
      // A pcall around a registration, and what comes after it.
      "local mode = {}\nlocal function seen() return mode.value end\n\(tests(3))\n"
        + "pcall(test, \"guarded\", function() end)\nmode.value = \"all\"",
      // A before_each registered after the tests, which runs before each of them.
      "local mode = {}\nlocal function seen() return mode.value end\n\(tests(3))\n"
        + "before_each(function() mode.value = \"all\" end)",
    ])
  func laterWorkRuns(_ source: String) throws {
    let result = try run(source)
    #expect(result.statuses.allSatisfy { $0 == .passed }, "\(result.statuses)")
    // A registration the file makes after the work may stop; the three before it never.
    #expect((result.stopsFrom ?? .max) >= 3, "\(String(describing: result.stopsFrom))")
  }

  @Test("tests after the file's last other statement stop; the ones before it run the whole file")
  func stopsOnlyAfterTheLastStatement() throws {
    let source = """
      local mode = {}
      local function seen() return mode.value end
      \(Self.tests(2))
      mode.value = "all"
      \(Self.tests(3, from: 3))
      """
    let result = try run(source)
    #expect(result.statuses == Array(repeating: .passed, count: 5))
    #expect(result.stopsFrom == 2)
    #expect(result.stopped == 3)
  }

  @Test("tests in a loop, in describe blocks, with it and pending: each load runs the whole file")
  func otherShapesRunWhole() throws {
    let source = """
      local function seen() return "all" end
      for n = 1, 2 do test("loop " .. n, function() expect(seen()):toBe("all") end) end
      describe("block", function()
        it("inside", function() expect(seen()):toBe("all") end)
      end)
      pending("later")
      """
    let result = try run(source)
    #expect(result.statuses == [.passed, .passed, .passed, .pending])
    #expect(result.stopped == 0)
  }

  @Test("a test file that raises what the stop raises is not taken for a stopped load")
  func forgedStopFails() throws {
    let source = """
      local function seen() return "all" end
      \(Self.tests(2))
      error("droprules: this load stops once its test is registered", 0)
      """
    let path = try directory.write("box_test.lua", source)
    let results = RuleTestRunner().run(files: [path])
    #expect(results.map(\.status) == [.loadError], "\(results.map(\.failures))")
  }
}
