/// An app off the board that the pointer is over, and what a drop there would do.
struct OutsideApp {
  var accepts: [TypeIdentifier]
  var operation: DragOperation
  /// The proposal there, negotiated, and the downgrade that made it.
  var proposal: Proposal = .cancel
  var downgrade: Downgrade?
}

/// Where the current drag stands. Targets are board positions.
struct DragState {
  var request: DragRequest
  var itemIDs: [ItemID] {
    didSet { itemSet = Set(itemIDs) }
  }
  /// The same ids, to ask whether an item is dragged without a walk of a large drag:
  /// given with them when the drag begins, kept with them after.
  var itemSet: Set<ItemID>
  /// The containers of the dragged board items, in drag order, each once; the first is
  /// `info.source`.
  var sources: [TargetID] = []
  /// Where each dragged board item sat when the drag began: under a copy it must stay
  /// there.
  var itemSources: [(item: ItemID, source: TargetID)] = []
  /// True while the drop or a source's `dragEnded` runs under a copy: a change that would
  /// take a dragged board item out of its source is refused (a copy never takes from its
  /// source).
  var protectsSources = false
  /// The operations the drag itself allows (before any source limited them).
  var requestedOperations: Set<DragOperation>
  /// What the drag allows over the board: its own operations and its sources'.
  var boardOperations: Set<DragOperation>
  /// Where `boardOperations` came from: the drag's own operations, then each source's
  /// `dragOperations` answer.
  var boardLimits: [OperationLimit]
  /// Where the operations allowed now came from (over the board or over another app),
  /// so that a downgrade can name what left an operation out.
  var limits: [OperationLimit]
  /// The app the pointer is over, off the board.
  var outside: OutsideApp?
  /// The dragged items a drop into another app took (`info.taken` in `dragEnded`).
  var takenOutside: [ItemID]?
  var pointer: Point?
  /// The target that was entered and not yet exited.
  var current: Int?
  /// Whether the last pointer step hit-tested the whole board (an `at` step), so that a
  /// move within a target nothing overlaps can keep the result.
  var lastStepSearchedEverything = false
  /// What `dropUpdated` last proposed for the current entry, before negotiation.
  var entryProposal: Proposal?
  /// The index `dropUpdated` named with a table proposal, for `performDrop`.
  var proposedIndex: Int?
  /// The index an `over` step named.
  var stepIndex: Int?
  /// The negotiated proposal now in force.
  var proposal: Proposal = .cancel
  /// Targets whose validateDrop said no while the pointer stays over them, with the
  /// step at which it did and whether it raised.
  var rejected: [Int: (step: Int, raised: Bool)] = [:]
  /// Whether each rule takes part in this drag (it accepts a dragged item).
  var participation: [RuleID: Bool] = [:]
  var stepNumber = 0
  /// True during the final dropExited: rules may read the board but not change it.
  var isReadOnly = false
  /// Set once the drag has ended (its last dropExited, then dragEnded): its drag-only data
  /// is gone, so setting more of it changes nothing and is no error.
  var hasEnded = false
  /// While set (in dragEnded), the only target a change may touch: a source cleans up
  /// after its own items and cannot reach another rule file's targets, even after a
  /// cancelled drag.
  var onlyWritableTarget: TargetID?
  /// The first change the board refused during performDrop because it would put a
  /// target inside itself: the drop fails even if the rule caught the error and
  /// returned true.
  var containmentRefusal: (item: ItemID, opened: TargetID, destination: TargetID)?
}
