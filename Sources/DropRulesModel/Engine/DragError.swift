/// A drag that cannot start or continue as asked, or a board that cannot be replaced now.
public enum DragError: Error, Equatable, Codable, CustomStringConvertible {
  case dragInProgress
  case noDrag
  case noItems
  case itemNotOnBoard(ItemID)
  case duplicateItem(ItemID)
  case unknownTarget(TargetID)
  /// An external item names a target it opens: only an item on the board can.
  case externalOpener(ItemID)

  /// What went wrong, for the person driving the drag.
  public var description: String {
    switch self {
    case .dragInProgress: "a drag is in progress; drop or cancel it first"
    case .noDrag: "no drag in progress; begin one first"
    case .noItems: "a drag needs at least one item"
    case .itemNotOnBoard(let id): "dragged item '\(id.capped(.name))' is not on the board"
    case .duplicateItem(let id): "item '\(id.capped(.name))' is dragged twice or clashes with a board item"
    case .unknownTarget(let id): "no target with id '\(id.capped(.name))'"
    case .externalOpener(let id):
      "external item '\(id.capped(.name))' cannot stand for a target; only an item on the board can"
    }
  }
}

/// Why a rule's change to the board was refused.
public enum StageError: Error, Equatable, Codable, CustomStringConvertible {
  case noDrag
  case readOnly
  /// dragEnded tried to change a target other than its own source.
  case outsideSource(source: TargetID, touched: TargetID)
  /// Under a copy, a change would take a dragged board item out of its source.
  case copyTakesFromSource(item: ItemID, source: TargetID)
  case board(BoardError)

  /// What went wrong, for the person driving the drag.
  public var description: String {
    switch self {
    case .noDrag: "the board can only change during a drag"
    case .readOnly:
      "the board is read-only in canDrag, dragOperations, dragPreview and announce (they only answer) and in the "
        + "dropExited after the drop"
    case .outsideSource(let source, let touched):
      "dragEnded may change only its own source target '\(source.capped(.name))', not '\(touched.capped(.name))'"
    case .copyTakesFromSource(let item, let source):
      "the drag is a copy, and a copy never takes from its source: '\(item.capped(.name))' stays in '\(source.capped(.name))'; "
        + "insert item:copy() instead"
    case .board(let error): error.description
    }
  }
}
