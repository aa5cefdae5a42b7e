import DropRules
import DropRulesModel
import DropRulesTools

/// A fuzz run as people and programs read it.
public enum FuzzReportText {
  /// The setting of the time limit, as the text names it; the command line names its flag.
  public static let maximumSecondsSetting = "Fuzzer.Options.maximumSeconds"

  /// What ran, how fast, and what broke, with the file that replays it.
  public static func text(_ report: Fuzzer.Report) -> String {
    var lines = ["fuzz \(report.scenario), seed \(report.seed)"]
    let rate = report.seconds > 0 ? Int((Double(report.drags) / report.seconds).rounded()) : 0
    let outcomes = DropOutcome.allCases.compactMap { outcome in
      report.outcomes[outcome].map { "\($0) \(outcome.rawValue)" }
    }
    lines.append(
      "  \(report.drags) drags, \(report.steps) steps in \(String(format: "%.1f", report.seconds)) s (\(rate) drags/s): "
        + outcomes.joined(separator: ", "))
    lines.append(
      "  properties: 7 of the host and the rules"
        + (report.authorProperties > 0 ? ", \(report.authorProperties) of the test files" : ""))
    if report.stoppedAtTimeLimit {
      lines.append("  stopped at the time limit (\(maximumSecondsSetting)) after \(report.drags) drags")
    }
    guard let finding = report.finding else {
      lines.append("  ok: nothing broke")
      return lines.joined(separator: "\n")
    }
    let whose =
      switch finding.failure.owner {
      case .host: "the host's promise"
      case .rule: "the rules'"
      case .author: "the test file's property"
      }
    lines.append("  FAIL \(TextEscaping.visible(finding.failure.description))  [\(whose)]")
    if finding.drag > 0 {
      lines.append(
        "       at drag \(finding.drag) of seed \(report.seed); shrunk from \(finding.original.steps.count) steps to "
          + "\(finding.shrunk.steps.count) and from \(finding.original.request.items.count) items to "
          + "\(finding.shrunk.request.items.count)")
    }
    if let file = finding.file {
      lines.append("       replay it: droprules run \(shellQuoted(file))")
    } else if let error = finding.writeError {
      lines.append("       the scenario could not be written: \(error)")
    }
    return lines.joined(separator: "\n")
  }

  /// A path as a shell reads it back: quoted when it holds anything but plain characters.
  static func shellQuoted(_ path: String) -> String {
    let plain = path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+".contains($0)) }
    return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The report as JSON: `scenario`, `seed`, `drags`, `steps`, `seconds`, `outcomes`,
  /// `authorProperties` and `failure` (null when nothing broke).
  public static func json(_ report: Fuzzer.Report) -> JSONValue {
    var failure = JSONValue.null
    if let finding = report.finding {
      failure = .object([
        "property": .string(finding.failure.property), "owner": .string(finding.failure.owner.rawValue),
        "detail": .string(finding.failure.detail),
        "file": finding.failure.file.map(JSONValue.string) ?? .null,
        "line": finding.failure.line.map { .integer(Int64($0)) } ?? .null,
        "drag": .integer(Int64(finding.drag)),
        "steps": .integer(Int64(finding.original.steps.count)),
        "shrunkSteps": .integer(Int64(finding.shrunk.steps.count)),
        "scenario": finding.file.map(JSONValue.string) ?? .null,
      ])
    }
    return .object([
      "scenario": .string(report.scenario), "seed": .integer(Int64(truncatingIfNeeded: report.seed)),
      "drags": .integer(Int64(report.drags)), "steps": .integer(Int64(report.steps)),
      "seconds": .number(report.seconds),
      "outcomes": .object(
        Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.key.rawValue, JSONValue.integer(Int64($0.value))) })),
      "authorProperties": .integer(Int64(report.authorProperties)),
      "stoppedAtTimeLimit": .bool(report.stoppedAtTimeLimit),
      "failure": failure,
    ])
  }
}
