import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// A property's reason is cut as a rule error is, and a test file named on the command
/// line gives its properties, as one found in a folder does.
@Suite("droprules fuzz: property reasons and named test files")
struct FuzzPropertyInputTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  static let scenario =
    #"{"rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#

  func fuzz(testFiles: [String]) throws -> Fuzzer.Report {
    try directory.write("box.lua", FuzzRobustnessTests.box)
    let scenario = try directory.write("s.scenario.json", Self.scenario)
    let fuzzer = try Fuzzer(
      scenario: try ScenarioDecoder.load(path: scenario), runner: ScenarioRunner(), extraRules: [],
      testFiles: testFiles)
    var options = Fuzzer.Options()
    options.drags = 200
    options.seed = 1
    options.outputDirectory = directory.path + "/out"
    return try fuzzer.run(options)
  }

  @Test(
    "a reason of a megabyte, or of one character of combining marks, and a long property name are cut",
    arguments: [#"string.rep("r", 1000000)"#, #""a" .. string.rep("\u{301}", 500000)"#])
  func longReason(_ reason: String) throws {
    let test = try directory.write(
      "box_test.lua",
      """
      property(string.rep("n", 100000), function(board) return false, \(reason) end)
      """)
    let report = try fuzz(testFiles: [test])
    let failure = try #require(report.finding?.failure)
    #expect(failure.detail.unicodeScalars.count == TextCap.message.limit)
    #expect(failure.property.unicodeScalars.count == TextCap.presentation.limit)
    #expect(FuzzReportText.text(report).utf8.count < 60_000)
    #expect(FuzzReportText.json(report).serialized().utf8.count < 60_000)
  }

  @Test("a *_test.lua named directly is a test file for its properties, not a rule file")
  func namedTestFile() throws {
    let test = try directory.write("p_test.lua", #"property("never", function() return false, "no") end)"#)
    let rules = try directory.write("other.lua", "return {}")
    let inputs = FileDiscovery.fuzzInputs(in: [test, rules])
    #expect(inputs.testFiles == [test])
    #expect(inputs.ruleGroups == [[rules]])
    #expect(inputs.missing.isEmpty)
    let folder = FileDiscovery.fuzzInputs(in: [directory.path])
    #expect(folder.testFiles.map { ($0 as NSString).lastPathComponent } == ["p_test.lua"])
    #expect(folder.ruleGroups.flatMap { $0 }.allSatisfy { !$0.hasSuffix("_test.lua") })
  }
}
