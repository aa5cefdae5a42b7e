import DropRulesTestSupport
import Foundation
import FoundationXML
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// Listing, excluding and shuffling tests, and the JSON report's shape.
@Suite("Test listing, filters, order and the JSON report")
struct TestRunOptionsTests {
  static func fixture() throws -> (TemporaryDirectory, [String]) {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", #"return { box = { dropUpdated = function() return "move" end } }"#)
    let tests = try directory.write(
      "box_test.lua",
      (1...12).map { #"test("case \#($0)", function() error("the body ran") end)"# }.joined(separator: "\n"))
    let scenario = try directory.write(
      "drop.scenario.json",
      """
      {"name": "a drop", "rules": ["box.lua"],
       "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"at": [1, 1]}], "expect": {"proposals": ["move"]}}
      """)
    try directory.write(
      "plain.scenario.json",
      """
      {"name": "no expect", "rules": ["box.lua"], "board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": []}
      """)
    return (directory, [tests, scenario, (directory.path as NSString).appendingPathComponent("plain.scenario.json")])
  }

  @Test("list names the tests a run would run, scenarios with expect among them, without running a body")
  func listing() throws {
    let (directory, files) = try Self.fixture()
    let (tests, loadErrors) = RuleTestRunner().list(files: files)
    #expect(loadErrors.isEmpty)
    #expect(tests.map(\.name) == (1...12).map { "case \($0)" } + ["a drop"])
    #expect(tests.first?.line == 1)
    #expect(tests.last == TestListing(file: files[1], name: "a drop"))
    // A run of the same files runs these tests, in this order.
    let results = RuleTestRunner().run(files: files)
    #expect(results.map(\.name) == tests.map(\.name))
    #expect(results.prefix(12).allSatisfy { $0.failures.first?.contains("the body ran") == true })
    _ = directory
  }

  @Test("--filter-out leaves out what it names, with or without --filter; a broken file is listed as such")
  func filterOut() throws {
    let (directory, files) = try Self.fixture()
    let runner = RuleTestRunner(filter: "case 1")
    runner.excluded = ["case 11", "", "case 12"]
    #expect(runner.list(files: files).tests.map(\.name) == ["case 1", "case 10"])
    #expect(runner.run(files: files).map(\.name) == ["case 1", "case 10"])
    let scenarioOut = RuleTestRunner()
    scenarioOut.excluded = ["drop.scenario.json"]
    #expect(scenarioOut.list(files: files).tests.count == 12)
    let broken = try directory.write("broken_test.lua", "test('x', function() end")
    let (tests, loadErrors) = RuleTestRunner().list(files: [broken])
    #expect(tests.isEmpty)
    #expect(loadErrors.map(\.status) == [.loadError])
  }

  @Test("a seed gives the same order every time; other seeds give other orders of the same tests")
  func shuffling() throws {
    let (directory, files) = try Self.fixture()
    func order(_ seed: UInt64) -> [String] {
      let runner = RuleTestRunner()
      runner.order = TestOrder(seed: seed)
      return runner.list(files: files).tests.map(\.name)
    }
    let unshuffled = RuleTestRunner().list(files: files).tests.map(\.name)
    #expect(order(42) == order(42))
    #expect(order(42) != unshuffled)
    #expect(order(42) != order(43))
    #expect(order(42).sorted() == unshuffled.sorted())
    // A run follows the same order as the listing.
    let runner = RuleTestRunner()
    runner.order = TestOrder(seed: 42)
    #expect(runner.run(files: files).map(\.name) == order(42))
    _ = directory
  }

  @Test("a file's order depends on the seed and its path only, not on the other files of the run")
  func perFileOrder() {
    let order = TestOrder(seed: 7)
    let tests = Array(1...20)
    #expect(order.tests(tests, inFile: "a_test.lua") == order.tests(tests, inFile: "a_test.lua"))
    #expect(order.tests(tests, inFile: "a_test.lua") != order.tests(tests, inFile: "b_test.lua"))
    #expect(order.tests(tests, inFile: "a_test.lua").sorted() == tests)
    #expect(order.files(["a", "b", "c", "d", "e"]).sorted() == ["a", "b", "c", "d", "e"])
    #expect(TestOrder.shuffled([Int](), seed: 1) == [])
    #expect(TestOrder.shuffled([1], seed: 1) == [1])
    // Pinned, from a reference SplitMix64 and Fisher-Yates written apart from this one:
    // a seed printed by one build must give the same order in the next.
    #expect(TestOrder.shuffled(Array(1...8), seed: 1234) == [8, 7, 3, 2, 6, 5, 1, 4])
    #expect(TestOrder.stableHash("") == 0xcbf2_9ce4_8422_2325)
    #expect(TestOrder.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
  }

  @Test("failures name their file and line; a message that merely contains a colon and digits does not")
  func failureLocations() {
    #expect(
      FailureLocation("rules/x/x_test.lua:31: expected \"a\", got \"b\"")
        == FailureLocation(file: "rules/x/x_test.lua", line: 31, message: "expected \"a\", got \"b\""))
    #expect(
      FailureLocation("rule error: rules/x/x.lua:12: boom (in dropUpdated of a, step 1)")
        == FailureLocation(file: "rules/x/x.lua", line: 12, message: "rule error: boom (in dropUpdated of a, step 1)"))
    #expect(
      FailureLocation("rules/x/x_test.lua: loaded again, other tests")
        == FailureLocation(file: "rules/x/x_test.lua", line: nil, message: "loaded again, other tests"))
    #expect(
      FailureLocation("outcome: expected performed, got cancelled")
        == FailureLocation(file: nil, line: nil, message: "outcome: expected performed, got cancelled"))
    #expect(FailureLocation(#"expected "a:1: b""#).file == nil)
    #expect(FailureLocation("x.lua:99999999999999999999999: huge").line == nil)
    #expect(FailureLocation("my rules/a b.lua:3: spaces").file == "my rules/a b.lua")
  }

  @Test("JUnit: the run's details are a suite of no tests, its properties only when there are some")
  func junitRunSuite() throws {
    let plain = TestReport.junit([])
    #expect(!plain.contains("droprules run"))
    let problems = TestReport.junit([], .init(problems: ["no tests found: <none> & \u{1B}"]))
    #expect(problems.contains(#"<testsuite name="droprules run" tests="0" failures="0" errors="0">"#))
    #expect(!problems.contains("<properties>"), "an empty <properties> is invalid in the JUnit schema")
    #expect(problems.contains(#"<system-err>no tests found: &lt;none&gt; &amp; \u{1B}</system-err>"#))
    let seeded = TestReport.junit([], .init(shuffleSeed: 12))
    #expect(seeded.contains("<properties>\n      <property name=\"seed\" value=\"12\"/>\n    </properties>"))
    for xml in [problems, seeded] {
      #expect(XMLParser(data: Data(xml.utf8)).parse())
    }
  }

  @Test("JSON: one document, each test with file, name, status, located failures and prints, totals, details")
  func jsonDocument() throws {
    let results = [
      TestCaseResult(file: "t_test.lua", name: "passes", status: .passed, durationSeconds: 1.5),
      TestCaseResult(file: "t_test.lua", name: "fails", status: .failed, failures: ["t_test.lua:4: expected 1, got 2"]),
      TestCaseResult(file: "u_test.lua", name: "u_test.lua", status: .loadError, failures: ["u_test.lua:1: syntax"]),
    ]
    let coverage = CoverageSummary(
      files: [CoverageRecorder.FileCoverage(file: "t.lua", executableLines: 4, coveredLines: 3, uncovered: [7])],
      threshold: 80)
    let text = TestReport.json(results, .init(coverage: coverage, shuffleSeed: 99, problems: ["a problem"]))
    let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(document.keys) == ["tests", "totals", "coverage", "seed", "problems"])
    let tests = try #require(document["tests"] as? [[String: Any]])
    #expect(tests.map { $0["status"] as? String } == ["passed", "failed", "error"])
    #expect(tests.allSatisfy { Set($0.keys) == ["file", "name", "status", "failures", "printed", "printedOmitted"] })
    let failure = try #require((tests[1]["failures"] as? [[String: Any]])?.first)
    #expect(failure["file"] as? String == "t_test.lua")
    #expect(failure["line"] as? Int == 4)
    #expect(failure["message"] as? String == "expected 1, got 2")
    #expect(document["totals"] as? [String: Int] == ["tests": 3, "passed": 1, "failed": 1, "errors": 1, "pending": 0])
    let covered = try #require(document["coverage"] as? [String: Any])
    #expect(covered["percent"] as? Double == 75)
    #expect(covered["belowThreshold"] as? Bool == true)
    #expect((covered["files"] as? [[String: Any]])?.first?["uncovered"] as? [Int] == [7])
    #expect(document["seed"] as? Int == 99)
    #expect(document["problems"] as? [String] == ["a problem"])
    // No durations: the same results give the same document.
    #expect(!text.contains("1.5"))
    #expect(TestReport.json([]) == TestReport.json([]))
  }
}
