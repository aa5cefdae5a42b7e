import DropRules
import DropRulesModel

/// What is worth a look in a decision table: targets that forbid everything, types
/// nothing reaches, drops shown as possible that then fail, drops that would put a
/// container inside itself, types that always decide the same, things nothing takes.
extension DecisionTable {
  /// The most examples one finding lists.
  static let examplesShown = 5

  /// One sentence each, most serious first.
  public var findings: [String] {
    var findings: [String] = []
    // A cell not computed says nothing of what the rules decide there.
    let rows = self.rows.filter { $0.decision.notComputed == nil }
    let failing = rows.filter { $0.decision.proposal?.operation != nil && $0.decision.outcome == .failed }
    let containing = failing.filter { $0.decision.reason?.contains("inside itself") == true }
    if !containing.isEmpty {
      findings.append(
        "\(containing.count) drop(s) would put a container inside itself (the host refuses them; "
          + "info.wouldContainItself forbids them early): " + Self.examples(containing.map(\.cell)))
    }
    let shownThenFailed = failing.filter { $0.decision.reason?.contains("inside itself") != true }
    if !shownThenFailed.isEmpty {
      findings.append(
        "\(shownThenFailed.count) cell(s) propose an operation that the drop then fails: "
          + Self.examples(shownThenFailed.map(\.cell))
          + (shownThenFailed.first?.decision.reason.map { " (first: \($0))" } ?? ""))
    }
    var targets: [TargetID] = []
    for row in rows where !targets.contains(row.cell.target) { targets.append(row.cell.target) }
    for target in targets {
      let own = rows.filter { $0.cell.target == target && $0.decision.entered == target }
      if own.isEmpty {
        findings.append("no drag reaches \(target): it is covered, closed, or takes no part in any drag tried")
      } else if !own.contains(where: { $0.decision.proposal?.operation != nil }) {
        findings.append("\(target) forbids everything (\(own.count) cells reach it)")
      }
    }
    var types: [String] = []
    for row in rows where !types.contains(row.cell.targetType) { types.append(row.cell.targetType) }
    for type in types {
      let reached = rows.filter { $0.cell.targetType == type && $0.decision.entered == $0.cell.target }
      let decisions = Set(reached.compactMap(\.decision.proposal))
      if reached.count > 1, decisions.count == 1, let only = decisions.first {
        findings.append(
          "every decision of \(type) is \(only.rawValue) (\(reached.count) cells): nothing it reads changes it")
      }
    }
    var things: [String] = []
    for row in rows where !things.contains(row.cell.dragged) { things.append(row.cell.dragged) }
    let untaken = things.filter { thing in
      !rows.contains { $0.cell.dragged == thing && $0.decision.outcome == .performed && $0.decision.entered != nil }
    }
    if !untaken.isEmpty { findings.append("nothing on the board takes " + untaken.joined(separator: ", ")) }
    return findings
  }

  static func examples(_ cells: [Cell]) -> String {
    let shown = cells.prefix(examplesShown).map(\.shortDescription).joined(separator: "; ")
    return cells.count > examplesShown ? shown + "; and \(cells.count - examplesShown) more" : shown
  }
}

extension DecisionTable.Cell {
  /// `todo · spike · before 2 · move+copy · none`.
  public var shortDescription: String {
    [target, dragged, position.description, operationsText, modifiersText].joined(separator: " · ")
  }
}
