import DropRules
import DropRulesModel
import Foundation

/// Renders test results as text (ending with `N passed, N failed`), TAP, JUnit XML or
/// JSON.
///
/// Test names, failure messages and printed lines come from test files and rules, so
/// every format escapes them: none can start a line, a TAP directive or XML markup of
/// its own.
public enum TestReport {
  /// What a report shows about the run besides its tests.
  public struct RunDetails: Sendable {
    /// Line coverage, when asked for.
    public var coverage: CoverageSummary?
    /// The seed of a shuffled order, so a failing order can be run again.
    public var shuffleSeed: UInt64?
    /// Why the run fails besides its tests: no test found, coverage below the threshold.
    public var problems: [String]

    /// Details with the coverage, seed and problems given; none by default.
    public init(coverage: CoverageSummary? = nil, shuffleSeed: UInt64? = nil, problems: [String] = []) {
      self.coverage = coverage
      self.shuffleSeed = shuffleSeed
      self.problems = problems
    }

    /// `shuffled with seed 1234`, or nil for a run in file order.
    public var shuffleNote: String? { shuffleSeed.map { "shuffled with seed \($0)" } }
  }

  /// Text for a terminal: a line per file, a line per test with what it printed and its
  /// failures under it (a pending test marked `...`), then coverage and problems, how
  /// many tests are pending, and last `N passed, N failed`.
  public static func text(_ results: [TestCaseResult], _ details: RunDetails = RunDetails()) -> String {
    var lines: [String] = details.shuffleNote.map { [$0] } ?? []
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
      case .pending: mark = "  ...   "
      }
      lines.append(mark + TextEscaping.visible(result.name))
      lines += printedLines(result.printed).map { "          " + $0 }
      lines += result.failures.map { "          " + TextEscaping.visible($0) }
    }
    if let coverage = details.coverage {
      if !lines.isEmpty { lines.append("") }
      lines += coverage.tableLines
    }
    if !details.problems.isEmpty {
      if !lines.isEmpty { lines.append("") }
      lines += details.problems.map { TextEscaping.visible($0) }
    }
    let passed = results.filter { $0.status == .passed }.count
    let pending = results.filter { $0.status == .pending }.count
    if !lines.isEmpty { lines.append("") }
    // The last line stays `N passed, N failed`: tools read it.
    if pending > 0 { lines.append("\(pending) pending") }
    lines.append("\(passed) passed, \(results.count - passed - pending) failed")
    return lines.joined(separator: "\n")
  }

  /// A test's printed lines as text and TAP show them: `print  ` and the line, escaped
  /// so it stays on its line (tabs kept), then how many were left out.
  static func printedLines(_ printed: PrintedOutput) -> [String] {
    printed.lines.map { "print  " + TextEscaping.visible($0) } + (printed.omissionNote.map { [$0] } ?? [])
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
