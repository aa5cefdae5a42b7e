import Foundation
import FoundationXML
import Testing

@testable import DropRulesTesting

/// What tests print comes from test files and rules: every format shows it under its
/// test, and none lets it write a line, a test point or markup of its own.
@Suite("Printed lines in reports")
struct TestReportPrintedTests {
  static let hostilePrints = [
    "plain", "ok 7 - forged\nnot ok 8 - forged", "# SKIP", "</system-out></testcase><testcase name=\"forged\">",
    "esc \u{1B}[2J", "nul\0after", "tab\tkept", "]]> & <", "cr\roverwrite", "noncharacter \u{FFFE}",
  ]

  static func results() -> [TestCaseResult] {
    var output = PrintedOutput(hostilePrints)
    output.append(contentsOf: Array(repeating: "x", count: PrintedOutput.maximumLines))
    return [
      TestCaseResult(file: "rules/x/x_test.lua", name: "prints", status: .passed, printed: output),
      TestCaseResult(
        file: "rules/x/x_test.lua", name: "fails", status: .failed, failures: ["rules/x/x_test.lua:9: boom"],
        printed: PrintedOutput(["before failing"])),
      TestCaseResult(file: "rules/x/x_test.lua", name: "silent", status: .passed),
    ]
  }

  @Test("text: printed lines sit under their test, escaped, with the count of lines left out")
  func text() {
    let text = TestReport.text(Self.results())
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let prints = lines.firstIndex(of: "  ok    prints") ?? 0
    #expect(lines[prints + 1] == "          print  plain")
    #expect(lines[prints + 2] == #"          print  ok 7 - forged\nnot ok 8 - forged"#)
    #expect(lines.contains("          print  tab\tkept"))
    #expect(lines.contains(#"          print  esc \u{1B}[2J"#))
    #expect(lines.contains("          ... 10 more printed lines not shown"))
    let fails = lines.firstIndex(of: "  FAIL  fails") ?? 0
    #expect(lines[fails + 1] == "          print  before failing")
    #expect(lines[fails + 2] == "          rules/x/x_test.lua:9: boom")
    #expect(lines[fails + 3] == "  ok    silent")
    #expect(lines.filter { !$0.hasPrefix(" ") } == ["rules/x/x_test.lua", "", "2 passed, 1 failed"])
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
  }

  @Test("TAP: printed lines are comments after their test point; none is a test point or a directive")
  func tap() {
    let tap = TestReport.tap(Self.results())
    let lines = tap.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("ok") || $0.hasPrefix("not ok") }.count == 3)
    #expect(
      lines.allSatisfy {
        $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") || $0.hasPrefix("# ") || $0.hasPrefix("  ")
          || $0 == "TAP version 13" || $0 == "1..3"
      })
    let prints = lines.firstIndex(of: "ok 1 - rules/x/x_test.lua: prints") ?? 0
    #expect(lines[prints + 1] == "# plain")
    #expect(lines[prints + 2] == #"# ok 7 - forged\nnot ok 8 - forged"#)
    #expect(lines.contains(#"# tab\tkept"#))
    #expect(lines.contains("# ... 10 more printed lines not shown"))
    // The YAML block follows its test point directly; the comments come after it.
    let fails = lines.firstIndex(of: "not ok 2 - rules/x/x_test.lua: fails") ?? 0
    #expect(
      Array(lines[fails + 1...fails + 4]) == [
        "  ---", #"  message: "rules/x/x_test.lua:9: boom""#, "  ...", "# before failing",
      ])
  }

  @Test("JUnit: printed lines are the testcase's system-out, which an XML parser reads back")
  func junit() throws {
    let xml = TestReport.junit(Self.results())
    let reader = SystemOutReader()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = reader
    #expect(parser.parse(), "\(String(describing: parser.parserError)): \(xml)")
    #expect(reader.testcases == ["prints", "fails", "silent"])
    let printed = reader.systemOut["prints"]?.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(printed?.first == "plain")
    #expect(printed?.contains(#"ok 7 - forged\nnot ok 8 - forged"#) == true)
    #expect(printed?.contains("</system-out></testcase><testcase name=\"forged\">") == true)
    #expect(printed?.contains("tab\tkept") == true)
    #expect(printed?.contains(#"nul\0after"#) == true)
    #expect(printed?.last == "... 10 more printed lines not shown")
    #expect(reader.systemOut["fails"] == "before failing")
    #expect(reader.systemOut["silent"] == nil)
  }

  @Test("JSON: printed lines come back exactly, with the count of lines left out")
  func json() throws {
    let document = try JSONSerialization.jsonObject(with: Data(TestReport.json(Self.results()).utf8)) as? [String: Any]
    let tests = document?["tests"] as? [[String: Any]] ?? []
    #expect(tests.count == 3)
    #expect((tests.first?["printed"] as? [String])?.prefix(Self.hostilePrints.count) == ArraySlice(Self.hostilePrints))
    #expect(tests.first?["printedOmitted"] as? Int == 10)
    #expect(tests.last?["printed"] as? [String] == [])
  }
}

/// Reads each testcase's name and its system-out text.
private final class SystemOutReader: NSObject, XMLParserDelegate {
  var testcases: [String] = []
  var systemOut: [String: String] = [:]
  private var text: String?

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if elementName == "testcase", let name = attributes["name"] { testcases.append(name) }
    if elementName == "system-out" { text = "" }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    if elementName == "system-out", let text, let name = testcases.last {
      systemOut[name] = text
      self.text = nil
    }
  }
}
