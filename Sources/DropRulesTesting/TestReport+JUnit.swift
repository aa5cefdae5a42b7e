import DropRules
import DropRulesModel
import Foundation

extension TestReport {
  /// JUnit XML, a test suite per file, what a test printed as its `<system-out>`; valid
  /// XML 1.0 whatever names, messages and printed lines hold. A run with coverage, a
  /// shuffle seed or problems adds a suite of no tests, `droprules run`, that carries
  /// them as properties, its `<system-out>` (the coverage table) and `<system-err>`.
  public static func junit(_ results: [TestCaseResult], _ details: RunDetails = RunDetails()) -> String {
    let failures = results.filter { $0.status == .failed }.count
    let errors = results.filter { $0.status == .loadError }.count
    let total = results.reduce(0) { $0 + $1.durationSeconds }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="droprules" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" skipped="\#(results.filter { $0.status == .pending }.count)" time="\#(String(format: "%.3f", total))">"#,
    ]
    let files = Dictionary(grouping: results, by: \.file)
    // Suites in the order their files first ran (a shuffled run keeps its order).
    var seen: Set<String> = []
    for file in results.map(\.file) where seen.insert(file).inserted {
      let cases = files[file] ?? []
      lines.append(
        #"  <testsuite name="\#(xml(file))" tests="\#(cases.count)" failures="\#(cases.filter { $0.status == .failed }.count)" errors="\#(cases.filter { $0.status == .loadError }.count)" skipped="\#(cases.filter { $0.status == .pending }.count)">"#
      )
      for result in cases { lines += testcase(result) }
      lines.append("  </testsuite>")
    }
    lines += runSuite(details)
    lines.append("</testsuites>")
    return lines.joined(separator: "\n")
  }

  private static func testcase(_ result: TestCaseResult) -> [String] {
    let open =
      #"    <testcase classname="\#(xml(result.file))" name="\#(xml(result.name))" time="\#(String(format: "%.3f", result.durationSeconds))""#
    var body: [String] = []
    if result.status == .pending { body.append(#"      <skipped message="pending"/>"#) }
    if result.status.isFailure {
      let element = result.status == .failed ? "failure" : "error"
      // One failure a line: a newline inside one is escaped like any control character.
      let text = result.failures.map(xml).joined(separator: "\n")
      let message = xml(result.failures.first ?? "")
      body.append(#"      <\#(element) message="\#(message)">\#(text)</\#(element)>"#)
    }
    if !result.printed.isEmpty {
      let printed = result.printed.lines + (result.printed.omissionNote.map { [$0] } ?? [])
      body.append("      <system-out>" + printed.map(xml).joined(separator: "\n") + "</system-out>")
    }
    guard !body.isEmpty else { return [open + "/>"] }
    return [open + ">"] + body + ["    </testcase>"]
  }

  /// The suite that carries the run's own details, or nothing when there are none.
  private static func runSuite(_ details: RunDetails) -> [String] {
    guard details.coverage != nil || details.shuffleSeed != nil || !details.problems.isEmpty else { return [] }
    var properties: [(String, String)] = []
    if let seed = details.shuffleSeed { properties.append(("seed", "\(seed)")) }
    if let coverage = details.coverage {
      properties.append(("coverage", coverage.shownPercent))
      if let threshold = coverage.threshold {
        properties.append(("coverage.threshold", CoverageSummary.shown(threshold: threshold)))
      }
      for file in coverage.files {
        properties.append(
          ("coverage:" + file.file, CoverageSummary.shown(covered: file.coveredLines, of: file.executableLines)))
      }
    }
    var lines = [#"  <testsuite name="droprules run" tests="0" failures="0" errors="0">"#]
    // An empty <properties> is invalid in the JUnit schema CI servers validate against.
    if !properties.isEmpty {
      lines.append("    <properties>")
      lines += properties.map { #"      <property name="\#(xml($0.0))" value="\#(xml($0.1))"/>"# }
      lines.append("    </properties>")
    }
    if let coverage = details.coverage {
      lines.append("    <system-out>" + coverage.tableLines.map(xml).joined(separator: "\n") + "</system-out>")
    }
    if !details.problems.isEmpty {
      lines.append("    <system-err>" + details.problems.map(xml).joined(separator: "\n") + "</system-err>")
    }
    lines.append("  </testsuite>")
    return lines
  }

  /// Text for an attribute value or element content: characters XML 1.0 refuses (and
  /// the other control characters) made visible escapes, then markup escaped. Tabs stay
  /// tabs, as a character reference, which attribute normalisation keeps.
  static func xml(_ text: String) -> String {
    var result = ""
    // Scalar by scalar: a combining mark after `&` must not hide it in one Character.
    for scalar in TextEscaping.visible(text, keepingTabs: true).unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t": result += "&#9;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
