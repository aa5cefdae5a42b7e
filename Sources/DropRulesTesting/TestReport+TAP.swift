import DropRules
import DropRulesModel

extension TestReport {
  /// TAP version 13: a test point per result, its failures in a YAML block, what it
  /// printed as `# ` comment lines after them; the seed of a shuffled run, coverage and
  /// the run's problems as comment lines too.
  public static func tap(_ results: [TestCaseResult], _ details: RunDetails = RunDetails()) -> String {
    var lines = ["TAP version 13", "1..\(results.count)"]
    if let note = details.shuffleNote { lines.append("# " + note) }
    for (offset, result) in results.enumerated() {
      let status = result.status.isFailure ? "not ok" : "ok"
      // A pending test was not run: TAP's SKIP, which no harness counts as a failure.
      let directive = result.status == .pending ? " # SKIP pending" : ""
      lines.append("\(status) \(offset + 1) - \(tapDescription("\(result.file): \(result.name)"))\(directive)")
      if let message = result.message {
        lines.append("  ---")
        lines.append("  message: \(yamlQuoted(message))")
        lines.append("  ...")
      }
      lines += tapComments(result.printed.lines) + (result.printed.omissionNote.map { ["# " + $0] } ?? [])
    }
    if let coverage = details.coverage { lines += coverage.tableLines.map { "# " + $0 } }
    lines += tapComments(details.problems)
    return lines.joined(separator: "\n")
  }

  /// Comment lines: control characters escaped, so none can end the comment and start a
  /// test point; a `#` inside a comment is plain text.
  static func tapComments(_ texts: [String]) -> [String] {
    texts.map { "# " + TextEscaping.visible($0, keepingTabs: false) }
  }

  /// A test point's description: `\` and `#` escaped as TAP 13 and 14 specify, so a
  /// name cannot end the description with a `# SKIP` or `# TODO` directive, and control
  /// characters escaped, so it cannot start a line.
  static func tapDescription(_ text: String) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
    return TextEscaping.visible(escaped, keepingTabs: false)
  }

  /// A YAML double-quoted scalar that reads back as `text`, whatever it holds: every
  /// character YAML would fold, refuse or take as a line break is an escape.
  static func yamlQuoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\0": result += "\\0"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\u{1B}": result += "\\e"
      case _ where TextEscaping.needsEscape(scalar):
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += scalar.value < 0x100 ? "\\x" + pad(hex, to: 2) : "\\u" + pad(hex, to: 4)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private static func pad(_ hex: String, to width: Int) -> String {
    String(repeating: "0", count: max(0, width - hex.count)) + hex
  }
}
