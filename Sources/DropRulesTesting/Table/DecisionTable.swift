import DropRules
import DropRulesModel
import DropRulesTools

/// What a rule set decides over a board's whole decision space, without committing
/// anything (`droprules table`): for each target, each thing that can be dragged, each
/// set of allowed operations, each modifier the rules read and each position (the whole
/// target, or before, into and after each row of a list, and its end), the proposal, the
/// operation negotiated, and whether the drop would be performed (run, then undone).
public struct DecisionTable: Sendable {
  /// Where in a target the pointer is.
  public enum Position: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The target itself (one without an item extent), its centre.
    case whole
    /// Over the first third of a row: the gap before it.
    case before(Int)
    /// Over the middle third of a row: into it (a folder's row).
    case into(Int)
    /// Over the last third of a row: the gap after it.
    case after(Int)
    /// After the last row.
    case end

    /// `whole`, `before 2`, `into 2`, `after 2`, `end`.
    public var description: String {
      switch self {
      case .whole: "whole"
      case .before(let row): "before \(row)"
      case .into(let row): "into \(row)"
      case .after(let row): "after \(row)"
      case .end: "end"
      }
    }

    var order: (Int, Int) {
      switch self {
      case .whole: (0, 0)
      case .before(let row): (row, 1)
      case .into(let row): (row, 2)
      case .after(let row): (row, 3)
      case .end: (Int.max, 0)
      }
    }

    /// Along the target: the whole first, then row by row, the end last.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.order < rhs.order }
  }

  /// One point of the decision space.
  public struct Cell: Hashable, Sendable {
    /// The target the pointer is put over.
    public var target: TargetID
    /// Its type.
    public var targetType: String
    /// A board item's id, or an item from another app (its id in the scenario, or
    /// `snippet` for plain text).
    public var dragged: String
    /// The operations the drag allows.
    public var operations: Set<DragOperation>
    /// The modifiers held.
    public var modifiers: Set<Modifier>
    /// Where in the target the pointer is.
    public var position: Position

    /// `operations` as `move+copy`, `move`, `copy`.
    public var operationsText: String {
      [DragOperation.move, .copy].filter(operations.contains).map(\.rawValue).joined(separator: "+")
    }
    /// `modifiers` as `none`, `option`.
    public var modifiersText: String {
      modifiers.isEmpty ? "none" : modifiers.sorted().map(\.rawValue).joined(separator: "+")
    }
  }

  /// What the rules decide at a cell.
  public struct Decision: Hashable, Sendable, CustomStringConvertible {
    /// The target the step entered: the cell's own, a target drawn over it, or none.
    public var entered: TargetID?
    /// The negotiated proposal; `cancel` over no target; nil when canDrag refused.
    public var proposal: Proposal?
    /// How a drop there ends: performed, failed or cancelled (refused when canDrag refused).
    public var outcome: DropOutcome
    /// Why it was not performed, or the first rule error.
    public var reason: String?
    /// Why the cell was not computed (the table stopped at its time limit, or gave up on
    /// a rule whose calls ran out of time); nil for a computed cell.
    public var notComputed: String?

    /// A cell not computed, and why.
    static func notComputed(_ why: String) -> Decision {
      Decision(entered: nil, proposal: nil, outcome: .cancelled, reason: why, notComputed: why)
    }

    /// `move performed`, `forbidden`, `copy failed`, `refused`, `not computed`.
    public var description: String {
      if notComputed != nil { return "not computed" }
      guard let proposal else { return "refused" }
      guard proposal.operation != nil else { return proposal.rawValue }
      return "\(proposal.rawValue) \(outcome.rawValue)"
    }
  }

  /// The cells and their decisions, in a stable order.
  public var rows: [(cell: Cell, decision: Decision)]
  /// The modifiers that changed some decision, and so got cells of their own.
  public var modifiersRead: [Modifier]
  /// How many cells the space had before modifiers the rules do not read were left out.
  public var cellsEvaluated: Int
  /// Whether the table stopped at its time limit (`--max-seconds`), leaving the cells
  /// after it not computed.
  public var stoppedAtTimeLimit = false
  /// The rules given up on after their calls ran out of time, in the order it happened.
  public var givenUp: [GivenUpRule] = []

  /// A rule whose calls ran out of time too often to go on calling it.
  public struct GivenUpRule: Hashable, Sendable {
    /// The target type the rule is for (`*` for the fallback).
    public var rule: String
    /// The rule file.
    public var file: String
  }

  /// How many cells were not computed.
  public var cellsNotComputed: Int { rows.count(where: { $0.decision.notComputed != nil }) }
}
