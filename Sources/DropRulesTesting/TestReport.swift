import DropRules
import Foundation

/// Renders test results as text (ending with `N passed, N failed`), TAP or JUnit XML.
public enum TestReport {
  public static func text(_ results: [TestCaseResult], coverage: [CoverageRecorder.FileCoverage]? = nil) -> String {
    var lines: [String] = []
    var currentFile: String?
    for result in results {
      if result.file != currentFile {
        currentFile = result.file
        lines.append(result.file)
      }
      let mark: String
      switch result.status {
      case .passed: mark = "  ok    "
      case .failed: mark = "  FAIL  "
      case .loadError: mark = "  ERROR "
      }
      lines.append(mark + result.name)
      if let message = result.message {
        lines += message.split(separator: "\n").map { "          " + $0 }
      }
    }
    if let coverage {
      lines.append("")
      lines.append("coverage")
      let width = coverage.map(\.file.count).max() ?? 0
      for file in coverage {
        let percent = String(format: "%5.1f", file.percent)
        var line =
          "  \(file.file.padding(toLength: width, withPad: " ", startingAt: 0))  \(percent)%"
          + " (\(file.coveredLines)/\(file.executableLines) lines)"
        if !file.uncovered.isEmpty { line += "  uncovered: " + ranges(file.uncovered) }
        lines.append(line)
      }
    }
    let passed = results.filter { $0.status == .passed }.count
    if !lines.isEmpty { lines.append("") }
    lines.append("\(passed) passed, \(results.count - passed) failed")
    return lines.joined(separator: "\n")
  }

  public static func tap(_ results: [TestCaseResult]) -> String {
    var lines = ["TAP version 13", "1..\(results.count)"]
    for (offset, result) in results.enumerated() {
      let status = result.status == .passed ? "ok" : "not ok"
      lines.append("\(status) \(offset + 1) - \(result.file): \(result.name)")
      if let message = result.message {
        lines.append("  ---")
        lines.append("  message: \(yamlQuoted(message))")
        lines.append("  ...")
      }
    }
    return lines.joined(separator: "\n")
  }

  public static func junit(_ results: [TestCaseResult]) -> String {
    let failures = results.filter { $0.status == .failed }.count
    let errors = results.filter { $0.status == .loadError }.count
    let total = results.reduce(0) { $0 + $1.durationSeconds }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="droprules" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(String(format: "%.3f", total))">"#,
    ]
    let files = Dictionary(grouping: results, by: \.file)
    for file in files.keys.sorted() {
      let cases = files[file] ?? []
      lines.append(
        #"  <testsuite name="\#(xml(file))" tests="\#(cases.count)" failures="\#(cases.filter { $0.status == .failed }.count)" errors="\#(cases.filter { $0.status == .loadError }.count)">"#
      )
      for result in cases {
        let open =
          #"    <testcase classname="\#(xml(file))" name="\#(xml(result.name))" time="\#(String(format: "%.3f", result.durationSeconds))""#
        switch result.status {
        case .passed:
          lines.append(open + "/>")
        case .failed, .loadError:
          let element = result.status == .failed ? "failure" : "error"
          lines.append(open + ">")
          let message = result.message ?? ""
          lines.append(#"      <\#(element) message="\#(xml(firstLine(message)))">\#(xml(message))</\#(element)>"#)
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n")
  }

  /// `3-5, 9` from `[3, 4, 5, 9]`.
  static func ranges(_ lines: [Int]) -> String {
    var parts: [String] = []
    var start: Int?
    var previous: Int?
    for line in lines + [Int.min] {
      if let last = previous, line == last + 1 {
        previous = line
        continue
      }
      if let first = start, let last = previous { parts.append(first == last ? "\(first)" : "\(first)-\(last)") }
      start = line
      previous = line
    }
    return parts.joined(separator: ", ")
  }

  private static func firstLine(_ text: String) -> String {
    String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
  }

  private static func xml(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  private static func yamlQuoted(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n") + "\""
  }
}
