import DropRules
import DropRulesModel

/// One generated drag: what is dragged and the steps taken, as a scenario holds them.
public struct FuzzDrag: Hashable, Sendable {
  /// The items, the operations the drag allows and the modifiers held at its start.
  public var request: DragRequest
  /// The steps once it began; the last is `drop` or `cancel`, or else the drag is
  /// cancelled after it, as a scenario's is.
  public var steps: [DragStep]
}
