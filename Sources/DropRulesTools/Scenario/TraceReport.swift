import DropRules
import DropRulesModel

/// Renders replayed scenarios for people (aligned text, optional colour) and for tools
/// (one JSON document with stable keys).
///
/// In text, everything a rule or a scenario wrote (printed lines, returned values, error
/// messages, ids) is shown through ``TextEscaping``: it cannot start a line of its own,
/// so no rule can print a verdict that reads like droprules' own, nor repaint the
/// terminal. JSON needs no such care: its encoder escapes control characters.
public struct TraceReport {
  /// Whether text uses ANSI colours and bold, for a terminal.
  public var colored: Bool

  /// A report, coloured for a terminal when `colored` is true.
  public init(colored: Bool = false) { self.colored = colored }

  // MARK: Text

  /// One replayed scenario as text: its rules, every step, the final board and the outcome.
  public func text(_ result: ScenarioResult) -> String {
    var lines: [String] = []
    let scenario = result.scenario
    lines.append(bold("scenario ") + safe(scenario.name) + (scenario.file.map { "  (\(safe($0)))" } ?? ""))
    lines.append("rules    " + (scenario.rules.isEmpty ? "(none)" : safe(scenario.rules.joined(separator: ", "))))
    lines += result.loadOutput.map { "print    " + safe($0) }
    for step in result.trace {
      lines.append("")
      lines.append(bold("step \(step.number)") + "  " + safe(step.action.description))
      for call in step.calls {
        let returnIgnored = [.dropEntered, .dropExited, .dragEnded].contains(call.handler)
        let shown = returnIgnored ? (call.result == "error" ? "error" : "") : call.result
        let subject = call.target + (call.item.map { "  \($0)" } ?? "")
        lines.append(row(call.handler.rawValue, safe(subject), paint(safe(shown))))
        lines += call.printed.map { row("  print", safe($0)) }
      }
      let linesOfCalls = step.calls.reduce(0) { $0 + $1.printed.count }
      lines += step.printed.dropFirst(linesOfCalls).map { row("print", safe($0)) }
      for diagnostic in step.diagnostics {
        lines.append(row(paint("error"), safe(diagnostic.description)))
        lines += tracebackLines(diagnostic.traceback)
      }
      if step.diagnosticsOmitted > 0 {
        lines.append(
          row(
            paint("error"),
            "\(step.diagnosticsOmitted) more left out (a drag's trace keeps \(DragEngine.maximumDiagnosticsPerDrag))"))
      }
      lines += step.refused.map { row("refused", safe($0) + " (canDrag)") }
      if let preview = step.preview { lines.append(row("preview", safe(preview.description))) }
      lines += step.springLoaded.map { row("opened", safe($0) + " (spring-loaded for the rest of the drag)") }
      lines += step.limits.map { row("limit", safe($0.description)) }
      if let allowed = step.allowed { lines.append(row("allowed", DragOperation.names(allowed))) }
      lines += step.skipped.map { row("skipped", safe($0.target), safe($0.detail(atStep: step.number))) }
      if step.skippedOmitted > 0 { lines.append(row("skipped", "\(step.skippedOmitted) more targets, further out")) }
      if let downgrade = step.downgrade { lines.append(row("negotiated", safe(downgrade.description))) }
      if let proposal = step.proposal {
        var text = paint(proposal.rawValue) + (step.index.map { "  index \($0)" } ?? "")
        if let over = step.over, let edge = step.edge { text += "  over \(safe(over)) (\(edge.rawValue))" }
        lines.append(row("proposal", text))
      }
      if let outcome = step.outcome {
        lines.append(
          row(
            "outcome", paint(outcome.rawValue) + (step.outcomeReason.map { "  (" + safe($0.description) + ")" } ?? "")))
      }
      if let announcement = step.announcement { lines.append(row("says", safe(announcement))) }
    }
    lines.append("")
    lines.append(bold("board"))
    let width = result.board.targetOrder.map(\.count).max() ?? 0
    for target in result.board.targets {
      var line =
        "  " + safe(target.id.padding(toLength: width, withPad: " ", startingAt: 0)) + "  "
        + (target.items.isEmpty ? "(empty)" : safe(target.items.joined(separator: ", ")))
      // Data is shown where the drag changed it, so the board says what the drop did.
      if target.data != result.scenario.board.target(target.id)?.data {
        line += "  data " + safe(JSONValue.object(target.data).serialized())
      }
      // A folder that moved with its row says where it is now.
      if target.parent != result.scenario.board.target(target.id)?.parent {
        line += "  in " + safe(target.parent ?? "(no parent)")
      }
      lines.append(line)
    }
    lines.append("")
    lines.append(summary(result))
    return lines.joined(separator: "\n")
  }

  private func summary(_ result: ScenarioResult) -> String {
    let count = result.diagnostics.count + result.diagnosticsDropped
    var errors = count == 1 ? "1 error" : "\(count) errors"
    if result.diagnosticsDropped > 0 { errors += " (\(result.diagnosticsDropped) left out of the trace)" }
    var text = "outcome \(paint(result.outcome.rawValue))"
    if let reason = result.outcomeReason { text += " (" + safe(reason.description) + ")" }
    text += ", \(errors)"
    if result.scenario.expect != nil {
      text +=
        result.failedExpectations.isEmpty ? ", expectations " + paint("passed") : ", expectations " + paint("failed")
      text += result.failedExpectations.map { "\n  expected " + safe($0) }.joined()
    }
    return text
  }

  /// Rule- or scenario-supplied text, on one line and without terminal codes.
  private func safe(_ text: String) -> String { TextEscaping.visible(text) }

  /// A traceback, a frame a line, indented under its error row. Lua starts each frame
  /// with a newline and a tab; any other newline is part of a name the rule chose, so it
  /// is escaped, and every line sits deeper than any line the trace writes itself.
  private func tracebackLines(_ traceback: String) -> [String] {
    guard !traceback.isEmpty else { return [] }
    let indent = "                "
    let frames = traceback.components(separatedBy: "\n\t")
    return [indent + safe(frames[0])] + frames.dropFirst().map { indent + "\t" + safe($0) }
  }

  private func row(_ label: String, _ target: String, _ result: String = "") -> String {
    let labelWidth = 16
    let padding = String(repeating: " ", count: max(1, labelWidth - visibleLength(label)))
    var text = "  " + label + padding + target
    if !result.isEmpty { text += "  " + result }
    return text
  }

  private func visibleLength(_ text: String) -> Int {
    var count = 0
    var inEscape = false
    for character in text {
      if character == "\u{1B}" {
        inEscape = true
      } else if inEscape {
        if character == "m" { inEscape = false }
      } else {
        count += 1
      }
    }
    return count
  }

  private func bold(_ text: String) -> String { colored ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

  private func paint(_ word: String) -> String {
    guard colored else { return word }
    let code: String
    switch word {
    case "move", "copy", "performed", "passed", "true": code = "32"
    case "forbidden", "failed", "error", "false", "refused": code = "31"
    case "cancel", "cancelled": code = "33"
    default: return word
    }
    return "\u{1B}[\(code)m\(word)\u{1B}[0m"
  }
}
