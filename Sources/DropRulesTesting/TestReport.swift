import DropRules
import Foundation

/// Renders test results as text (ending with `N passed, N failed`), TAP or JUnit XML.
///
/// Test names and failure messages come from test files and rules, so every format
/// escapes them: none can start a line, a TAP directive or XML markup of its own.
public enum TestReport {
  public static func text(_ results: [TestCaseResult], coverage: [CoverageRecorder.FileCoverage]? = nil) -> String {
    var lines: [String] = []
    var currentFile: String?
    for result in results {
      if result.file != currentFile {
        currentFile = result.file
        lines.append(TextEscaping.visible(result.file))
      }
      let mark: String
      switch result.status {
      case .passed: mark = "  ok    "
      case .failed: mark = "  FAIL  "
      case .loadError: mark = "  ERROR "
      }
      lines.append(mark + TextEscaping.visible(result.name))
      lines += result.failures.map { "          " + TextEscaping.visible($0) }
    }
    if let coverage {
      lines.append("")
      lines.append("coverage")
      let width = coverage.map(\.file.count).max() ?? 0
      for file in coverage {
        let percent = String(format: "%5.1f", file.percent)
        var line =
          "  \(TextEscaping.visible(file.file).padding(toLength: width, withPad: " ", startingAt: 0))  \(percent)%"
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
}
