import DropRules
import DropRulesModel
import DropRulesTools

/// A decision table as text, JSON, CSV and an HTML page.
extension DecisionTable {
  /// A line per target, thing dragged, position and modifiers, with the decision under
  /// each operation set (one `all:` when they agree), then what is worth a look.
  public func text(scenario: String) -> String {
    var lines = [
      "table \(scenario): \(rows.count) cells"
        + " (modifiers read: \(modifiersRead.isEmpty ? "none" : modifiersRead.map(\.rawValue).joined(separator: ", ")))"
    ]
    lines += incompleteness.map { TextEscaping.visible($0) }
    var currentTarget: TargetID?
    // What reaches no target anywhere in a target is said once, after its lines.
    var unreached: [String] = []
    func closeTarget() {
      if !unreached.isEmpty {
        lines.append("  no target for " + TextEscaping.visible(unreached.joined(separator: ", ")))
      }
      unreached = []
    }
    var index = 0
    while index < rows.count {
      let cell = rows[index].cell
      if cell.target != currentTarget {
        closeTarget()
        currentTarget = cell.target
        lines.append("\(cell.target) (\(cell.targetType))")
      }
      // The cells that differ only in their operations sit next to each other.
      var group = [rows[index]]
      while index + group.count < rows.count {
        let next = rows[index + group.count]
        guard next.cell.target == cell.target, next.cell.dragged == cell.dragged, next.cell.position == cell.position,
          next.cell.modifiers == cell.modifiers
        else { break }
        group.append(next)
      }
      index += group.count
      let shown = group.map { Self.shown($0.decision, for: $0.cell) }
      if shown.allSatisfy({ $0 == "no target" }) {
        if !unreached.contains(cell.dragged) { unreached.append(cell.dragged) }
        continue
      }
      let decisions =
        Set(shown).count == 1
        ? "all: \(shown[0])" : zip(group, shown).map { "\($0.cell.operationsText): \($1)" }.joined(separator: " · ")
      let modifiers = cell.modifiers.isEmpty ? "" : " [\(cell.modifiersText)]"
      lines.append("  " + TextEscaping.visible("\(cell.dragged)  \(cell.position)\(modifiers)  \(decisions)"))
    }
    closeTarget()
    let findings = self.findings
    lines.append("worth a look" + (findings.isEmpty ? ": nothing" : ""))
    lines += findings.map { "  - " + TextEscaping.visible($0) }
    return lines.joined(separator: "\n")
  }

  /// What the table left out, a sentence each: the rules given up on, the time limit,
  /// and how many cells are marked `not computed`; none for a whole table.
  public var incompleteness: [String] {
    var sentences = givenUp.map {
      "gave up on the rule of \($0.rule.capped(.name)) (\($0.file)): \(DecisionTableBuilder.timedOutCallsBeforeGivingUp) "
        + "of its calls ran out of time (--max-time), so the cells over or from its targets after them are not computed"
    }
    if stoppedAtTimeLimit {
      sentences.append("stopped at the time limit (--max-seconds): the cells after it are not computed")
    }
    let missing = cellsNotComputed
    if missing > 0 { sentences.append("\(missing) of \(rows.count) cells not computed") }
    return sentences
  }

  /// The decision as the text table shows it; over another target, which one.
  static func shown(_ decision: Decision, for cell: Cell) -> String {
    guard let entered = decision.entered, entered != cell.target else {
      return decision.entered == nil && decision.proposal != nil ? "no target" : decision.description
    }
    return "\(decision.description) (over \(entered))"
  }

  /// `{"scenario", "cells", "evaluated", "modifiersRead", "rows": [...], "findings": [...]}`.
  public func json(scenario: String) -> JSONValue {
    .object([
      "scenario": .string(scenario), "cells": .integer(Int64(rows.count)),
      "notComputed": .integer(Int64(cellsNotComputed)), "stoppedAtTimeLimit": .bool(stoppedAtTimeLimit),
      "givenUp": .array(givenUp.map { .object(["rule": .string($0.rule), "file": .string($0.file)]) }),
      // Every modifier is tried; the cells of those the rules do not read are left out.
      "evaluated": .integer(Int64(cellsEvaluated)),
      "modifiersRead": .array(modifiersRead.map { .string($0.rawValue) }),
      "rows": .array(rows.map { Self.json($0.cell, $0.decision) }),
      "findings": .array(findings.map(JSONValue.string)),
    ])
  }

  static func json(_ cell: Cell, _ decision: Decision) -> JSONValue {
    .object([
      "target": .string(cell.target), "targetType": .string(cell.targetType), "dragged": .string(cell.dragged),
      "position": .string(cell.position.description),
      "operations": .array(DragOperation.allCases.filter(cell.operations.contains).map { .string($0.rawValue) }),
      "modifiers": .array(cell.modifiers.sorted().map { .string($0.rawValue) }),
      "entered": decision.entered.map(JSONValue.string) ?? .null,
      "proposal": decision.proposal.map { .string($0.rawValue) } ?? .null,
      "outcome": decision.notComputed == nil ? .string(decision.outcome.rawValue) : .null,
      "reason": decision.reason.map(JSONValue.string) ?? .null,
      "notComputed": decision.notComputed.map(JSONValue.string) ?? .null,
    ])
  }

  /// One row a cell, with a header: target, type, dragged, position, operations,
  /// modifiers, entered, proposal, outcome, reason.
  public var csv: String {
    var lines = ["target,type,dragged,position,operations,modifiers,entered,proposal,outcome,reason"]
    for (cell, decision) in rows {
      lines.append(
        [
          cell.target, cell.targetType, cell.dragged, cell.position.description, cell.operationsText,
          cell.modifiersText, decision.entered ?? "", decision.proposal?.rawValue ?? "",
          decision.notComputed == nil ? decision.outcome.rawValue : "not computed",
          decision.reason ?? "",
        ].map(Self.csvField).joined(separator: ","))
    }
    return lines.joined(separator: "\n")
  }

  /// A field quoted when it holds a comma, a quote or a line break (RFC 4180).
  static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// A self-contained page: the findings, then a table per target, coloured by proposal.
  public func html(scenario: String) -> String {
    func escape(_ text: String) -> String {
      text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    var body = "<h1>droprules table</h1><p>\(escape(scenario)): \(rows.count) cells</p>"
    body += incompleteness.map { "<p>\(escape($0))</p>" }.joined()
    let findings = self.findings
    body +=
      "<h2>Worth a look</h2><ul>"
      + (findings.isEmpty ? "<li>nothing</li>" : findings.map { "<li>\(escape($0))</li>" }.joined()) + "</ul>"
    body += "<table><thead><tr><th>target</th><th>dragged</th><th>position</th><th>operations</th><th>modifiers</th>"
    body += "<th>decision</th><th>why</th></tr></thead><tbody>"
    for (cell, decision) in rows {
      let kind = decision.proposal?.rawValue ?? "refused"
      body += "<tr class=\"p-\(kind)\"><td>\(escape(cell.target))</td><td>\(escape(cell.dragged))</td>"
      body += "<td>\(cell.position)</td><td>\(cell.operationsText)</td><td>\(cell.modifiersText)</td>"
      body += "<td>\(escape(Self.shown(decision, for: cell)))</td><td>\(escape(decision.reason ?? ""))</td></tr>"
    }
    body += "</tbody></table>"
    let style = """
      body { font: 13px system-ui, sans-serif; margin: 1.5em; } table { border-collapse: collapse; }
      td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
      .p-move td:nth-child(6) { background: #d7f5dd; } .p-copy td:nth-child(6) { background: #dbe8ff; }
      .p-forbidden td:nth-child(6) { background: #fde0e0; } .p-cancel td:nth-child(6), .p-refused td:nth-child(6) { background: #f3ead2; }
      """
    return """
      <!doctype html><html lang="en"><head><meta charset="utf-8"><title>droprules table</title>
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
      <style>\(style)</style></head><body>\(body)</body></html>
      """
  }
}
