import DropRulesTestSupport
import Foundation
import Testing

/// `droprules test` tells the truth: an empty run fails and says why, what tests print
/// is shown under them, coverage reaches every format, and a rule file is not a test.
@Suite("droprules test: empty runs, printed output, non-test files")
struct TestReportingCommandTests {
  /// A rule that prints, and tests that print, one of them trying to forge report lines.
  static func printingTests() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "box.lua",
      """
      return { box = {
        dropUpdated = function(info, target) print("rule sees " .. target.id) return "move" end,
      } }
      """)
    try scratch.write(
      "box_test.lua",
      #"""
      local function sim()
        return scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end
      test("prints", function()
        print("from the test")
        sim():drag({ { id = "x" } }):over("a")
      end)
      test("forges", function()
        print("x\nok 99 - forged\n1 passed, 0 failed</system-out></testcase><testcase name=\"forged\"/>\27[2J")
      end)
      """#)
    return scratch
  }

  @Test("a filter that matches nothing fails the run and says what it matched none of")
  func filterMatchesNothing() throws {
    let result = try DropRulesBinary.run(["test", "rules/calendar", "--filter", "nomatch"])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        #"no tests found: --filter "nomatch" matched none of the 9 tests in 2 files (see droprules test --list)"#),
      "\(result.stdout)")
    #expect(result.stdout.hasSuffix("\n0 passed, 0 failed\n"))
    let excluded = try DropRulesBinary.run(["test", "rules/calendar", "--filter-out", "rules/"])
    #expect(excluded.status == 1)
    #expect(excluded.stdout.contains(#"no tests found: --filter-out "rules/" matched none of the 9 tests"#))
  }

  @Test("a folder without tests, or with only scenarios without expect, fails the run and says so")
  func folderWithoutTests() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", "return { box = {} }")
    let empty = try DropRulesBinary.run(["test", scratch.url.path])
    #expect(empty.status == 1)
    #expect(
      empty.stdout.contains(
        "no tests found: no *_test.lua, *_spec.lua or *.scenario.json file under \(scratch.url.path)"))
    #expect(empty.stdout.hasSuffix("0 passed, 0 failed\n"))
    try scratch.write(
      "plain.scenario.json",
      #"{"name": "p", "rules": ["box.lua"], "board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": []}"#)
    try scratch.write("none_test.lua", "-- no test() yet\n")
    let noExpect = try DropRulesBinary.run(["test", scratch.url.path])
    #expect(noExpect.status == 1)
    #expect(
      noExpect.stdout.contains(
        "no tests found: none of the 2 test files under \(scratch.url.path) registers a test() or is a scenario with expect"
      ))
    let scenario = scratch.url.appendingPathComponent("plain.scenario.json").path
    let one = try DropRulesBinary.run(["test", scenario])
    #expect(one.status == 1)
    #expect(one.stdout.hasPrefix("no tests found: \(scenario) is a scenario without expect\n"))
    let testFile = scratch.url.appendingPathComponent("none_test.lua").path
    let other = try DropRulesBinary.run(["test", testFile, "--format", "json"])
    #expect(other.status == 1)
    #expect(other.stderr.contains("error: no tests found: \(testFile) registers no test()"))
  }

  @Test("an empty run in tap, junit and json: the document says it, and so does stderr where a document hides it")
  func emptyRunInEveryFormat() throws {
    let tap = try DropRulesBinary.run(["test", "rules/calendar", "--filter", "nomatch", "--format", "tap"])
    #expect(tap.status == 1)
    #expect(tap.stdout.hasPrefix("TAP version 13\n1..0\n# no tests found: --filter"))
    let junit = try DropRulesBinary.run(["test", "rules/calendar", "--filter", "nomatch", "--format", "junit"])
    #expect(junit.status == 1)
    #expect(junit.stdout.contains("<system-err>no tests found: --filter &quot;nomatch&quot;"))
    #expect(junit.stderr.contains("error: no tests found"))
    let json = try DropRulesBinary.run(["test", "rules/calendar", "--filter", "nomatch", "--format", "json"])
    #expect(json.status == 1)
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect((document?["problems"] as? [String])?.first?.hasPrefix("no tests found") == true)
    #expect(json.stderr.contains("error: no tests found"))
  }

  @Test("a rule file given to test is not run as a test: exit 2, naming its test file or droprules check")
  func ruleFileIsNotATest() throws {
    let result = try DropRulesBinary.run(["test", "rules/calendar/calendar.lua"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr.contains(
        "error: rules/calendar/calendar.lua: not a test file (tests are *_test.lua, *_spec.lua and *.scenario.json files); "
          + "its tests are in rules/calendar/calendar_test.lua"))
    let scratch = try TemporaryDirectory()
    let lone = try scratch.write("lone.lua", "return {}")
    let notes = try scratch.write("notes.txt", "hello")
    let other = try DropRulesBinary.run(["test", lone, notes, "rules/calendar"])
    #expect(other.status == 2)
    #expect(other.stdout.isEmpty, "nothing runs")
    #expect(
      other.stderr.contains(
        "\(lone): not a test file (tests are *_test.lua, *_spec.lua and *.scenario.json files); check a rule file with droprules check \(lone)"
      ))
    #expect(other.stderr.contains("\(notes): not a test file"))
  }

  @Test("text: a test's prints and its rule's prints are under it; a forged line stays on its line")
  func printedText() throws {
    let scratch = try Self.printingTests()
    let result = try DropRulesBinary.run(["test", scratch.url.path])
    #expect(result.status == 0, "\(result.stdout)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let prints = try #require(lines.firstIndex(of: "  ok    prints"))
    #expect(lines[prints + 1] == "          print  from the test")
    #expect(lines[prints + 2] == "          print  rule sees a")
    #expect(lines[prints + 3] == "  ok    forges")
    #expect(lines[prints + 4].hasPrefix(#"          print  x\nok 99 - forged\n1 passed, 0 failed</system-out>"#))
    #expect(lines.last == "2 passed, 0 failed")
    #expect(!result.stdout.contains("\u{1B}"))
  }

  @Test("tap: prints are # comments; no printed text becomes a test point")
  func printedTAP() throws {
    let scratch = try Self.printingTests()
    let result = try DropRulesBinary.run(["test", "--format", "tap", scratch.url.path])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count == 2)
    #expect(lines.contains("# from the test"))
    #expect(lines.contains("# rule sees a"))
    #expect(lines.contains { $0.hasPrefix(#"# x\nok 99 - forged"#) })
  }

  @Test(
    "junit: prints are the testcase's system-out, which python's XML parser reads back; no testcase is forged",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func printedJUnit() throws {
    let scratch = try Self.printingTests()
    let result = try DropRulesBinary.run(["test", "--format", "junit", scratch.url.path])
    let report = try scratch.write("report.xml", result.stdout)
    let parsed = try Python.run(
      """
      import json, sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      print(json.dumps([[c.get("name"), c.findtext("system-out")] for c in root.iter("testcase")]))
      """, report)
    #expect(parsed.status == 0, "\(parsed.stderr)")
    let cases = try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String?]]
    #expect(cases?.map { $0[0] } == ["prints", "forges"])
    #expect(cases?.first?[1] == "from the test\nrule sees a")
    #expect(cases?.last?[1]?.hasPrefix(#"x\nok 99 - forged\n1 passed, 0 failed</system-out></testcase>"#) == true)
  }

  @Test("json: each test's printed lines, exactly as printed")
  func printedJSON() throws {
    let scratch = try Self.printingTests()
    let result = try DropRulesBinary.run(["test", "--format", "json", scratch.url.path])
    #expect(result.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let tests = document?["tests"] as? [[String: Any]] ?? []
    #expect(tests.map { $0["printed"] as? [String] ?? [] }.first == ["from the test", "rule sees a"])
    #expect(
      (tests.last?["printed"] as? [String])?.first
        == "x\nok 99 - forged\n1 passed, 0 failed</system-out></testcase><testcase name=\"forged\"/>\u{1B}[2J")
  }
}
