import DropRules
import DropRulesModel

/// The cells whose decision changed between two versions of the rules, the way a
/// reviewer wants to see a policy change (`droprules diff`).
public struct DecisionTableDiff: Sendable {
  /// A changed cell: what the old rules decided, and the new.
  public struct Change: Sendable {
    /// The cell.
    public var cell: DecisionTable.Cell
    /// What the old rules decided there.
    public var old: DecisionTable.Decision
    /// What the new rules decide.
    public var new: DecisionTable.Decision

    /// `todo · spike · before 1 · move+copy · none: move performed -> forbidden`.
    public var description: String {
      "\(cell.shortDescription): \(DecisionTable.shown(old, for: cell)) -> \(DecisionTable.shown(new, for: cell))"
    }
  }

  /// The changed cells, in the old table's order.
  public var changes: [Change]
  /// How many cells were compared.
  public var cells: Int
  /// How many cells were not compared: not computed in one version or both (a time
  /// limit, or a rule given up on).
  public var notCompared: Int

  /// Compares two tables of the same board. A modifier one version reads and the other
  /// does not is compared with the other's decision without modifiers, which is what a
  /// version that does not read it decides.
  public init(old: DecisionTable, new: DecisionTable) {
    func index(_ table: DecisionTable) -> [DecisionTable.Cell: DecisionTable.Decision] {
      Dictionary(table.rows.map { ($0.cell, $0.decision) }, uniquingKeysWith: { first, _ in first })
    }
    let oldCells = index(old)
    let newCells = index(new)
    func decision(_ cell: DecisionTable.Cell, in cells: [DecisionTable.Cell: DecisionTable.Decision])
      -> DecisionTable.Decision?
    {
      if let found = cells[cell] { return found }
      var plain = cell
      plain.modifiers = []
      return cells[plain]
    }
    var order = old.rows.map(\.cell)
    let known = Set(order)
    order += new.rows.map(\.cell).filter { !known.contains($0) }
    var skipped = 0
    changes = order.compactMap { cell in
      // The reason is left out: it names the rule file, which two versions name differently.
      guard let before = decision(cell, in: oldCells), let after = decision(cell, in: newCells) else { return nil }
      guard before.notComputed == nil, after.notComputed == nil else {
        skipped += 1
        return nil
      }
      guard before.entered != after.entered || before.proposal != after.proposal || before.outcome != after.outcome
      else { return nil }
      return Change(cell: cell, old: before, new: after)
    }
    cells = order.count - skipped
    notCompared = skipped
  }

  /// One line per changed cell, after a line that says how many of how many changed.
  /// When cells were not compared, a line says how many and why.
  public var text: String {
    var lines = ["\(changes.count) of \(cells) cells changed"]
    if notCompared > 0 {
      lines.append(
        "\(notCompared) cells not compared: not computed in one version or both "
          + "(the time limit, --max-seconds, or a rule whose calls ran out of time)")
    }
    return (lines + changes.map { "  " + TextEscaping.visible($0.description) }).joined(separator: "\n")
  }
}
