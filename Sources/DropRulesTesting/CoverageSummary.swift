import DropRules
import DropRulesModel
import Foundation

/// Line coverage of a run: per rule file and in total, and whether the total meets a
/// threshold (`--coverage-threshold`).
public struct CoverageSummary: Sendable {
  /// Each rule file that ran, sorted by path.
  public var files: [CoverageRecorder.FileCoverage]
  /// The least total line coverage, in percent, the run must reach; nil for none.
  public var threshold: Double?

  /// The summary of `files` (from ``CoverageRecorder/report()``), checked against `threshold`.
  public init(files: [CoverageRecorder.FileCoverage], threshold: Double? = nil) {
    self.files = files
    self.threshold = threshold
  }

  /// Lines with code on them, over every rule file that ran.
  public var executableLines: Int { files.reduce(0) { $0 + $1.executableLines } }
  /// Executable lines that ran at least once, over every rule file that ran.
  public var coveredLines: Int { files.reduce(0) { $0 + $1.coveredLines } }

  /// Covered lines over executable lines of every rule file that ran, in percent. A run
  /// in which no rule file ran covered nothing: 0. Files without executable lines add
  /// nothing, and a run of only such files is fully covered: 100.
  public var percent: Double {
    if files.isEmpty { return 0 }
    return executableLines == 0 ? 100 : Double(coveredLines) * 100 / Double(executableLines)
  }

  /// Whether the total falls short of ``threshold``, compared exactly (not as shown).
  public var isBelowThreshold: Bool {
    guard let threshold else { return false }
    if files.isEmpty { return threshold > 0 }
    return Double(coveredLines) * 100 < threshold * Double(executableLines)
  }

  /// `coverage 62.5% is below the threshold of 80%`, or nil when the total meets it.
  public var thresholdFailure: String? {
    guard isBelowThreshold, let threshold else { return nil }
    let reason = files.isEmpty ? " (no rule file ran)" : ""
    return "coverage \(shownPercent)% is below the threshold of \(Self.shown(threshold: threshold))%\(reason)"
  }

  /// `covered` of `total` lines in percent with one decimal, rounded down, in integers:
  /// a report never shows 80.0% for 79.96%, which a threshold of 80% refuses.
  static func shown(covered: Int, of total: Int) -> String {
    guard total > 0 else { return "100.0" }
    let tenths = covered * 1000 / total
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// The total as ``shown(covered:of:)`` writes it.
  var shownPercent: String { files.isEmpty ? "0.0" : Self.shown(covered: coveredLines, of: executableLines) }

  /// A threshold as the user wrote it: `80`, `72.5`.
  static func shown(threshold: Double) -> String {
    threshold == threshold.rounded() ? String(Int(threshold)) : String(threshold)
  }

  /// The table text and TAP show: a line per file with its uncovered lines, then the total.
  public var tableLines: [String] {
    let names = files.map { TextEscaping.visible($0.file, keepingTabs: false) }
    let width = max(names.map(\.count).max() ?? 0, "total".count)
    var lines = ["coverage"]
    for (name, file) in zip(names, files) {
      let percent = Self.shown(covered: file.coveredLines, of: file.executableLines)
      var line = "  \(padded(name, width))  \(padded(percent, 5, left: true))%"
      line += " (\(file.coveredLines)/\(file.executableLines) lines)"
      if !file.uncovered.isEmpty { line += "  uncovered: " + TestReport.ranges(file.uncovered) }
      lines.append(line)
    }
    lines.append(
      "  \(padded("total", width))  \(padded(shownPercent, 5, left: true))%"
        + " (\(coveredLines)/\(executableLines) lines)")
    return lines
  }

  private func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
  }

  /// The structured form, for `--format json`.
  public var json: JSONValue {
    var fields: [String: JSONValue] = [
      "files": .array(
        files.map { file in
          .object([
            "file": .string(file.file), "executableLines": .integer(Int64(file.executableLines)),
            "coveredLines": .integer(Int64(file.coveredLines)), "percent": .number(file.percent),
            "uncovered": .array(file.uncovered.map { .integer(Int64($0)) }),
          ])
        }),
      "executableLines": .integer(Int64(executableLines)), "coveredLines": .integer(Int64(coveredLines)),
      "percent": .number(percent),
    ]
    if let threshold {
      fields["threshold"] = .number(threshold)
      fields["belowThreshold"] = .bool(isBelowThreshold)
    }
    return .object(fields)
  }
}
