/// Where the current drag stands.
struct DragState {
  var session: DragSession
  var itemIDs: [ItemID]
  /// The container of the first dragged board item.
  var source: TargetID?
  /// The board with this drag's changes.
  var staged: Board
  var pointer: Point?
  /// The target that was entered and not yet exited.
  var current: TargetID?
  /// What `dropUpdated` last proposed for the current entry, before negotiation.
  var entryProposal: DropProposal?
  /// The index `dropUpdated` named with a table proposal, for `performDrop`.
  var proposedIndex: Int?
  /// The index an `over` step named.
  var stepIndex: Int?
  /// The negotiated proposal now in force.
  var proposal: DropProposal = .cancel
  /// Targets whose validateDrop said no while the pointer stays over them.
  var rejected: Set<TargetID> = []
  /// Whether each target type takes part in this drag (has a rule, accepts an item).
  var participation: [String: Bool] = [:]
  var stepNumber = 0
  /// True during the final dropExited: rules may read the board but not change it.
  var isReadOnly = false
}
