/// What rules read of a drag in progress (`info.items`, `info.modifiers`,
/// `info.allowedOperations`, `info.source`, `info.taken`), read from the engine when a
/// rule asks, not pushed into the rules when it changes.
public struct DragFacts: Hashable, Sendable, Codable {
  /// The dragged items, in drag order: those their sources' `canDrag` let go.
  public var items: [ItemID]
  /// The modifier keys held now.
  public var modifiers: Set<Modifier>
  /// The operations allowed now: the drag's own, narrowed by its sources' answers, or
  /// those outside the board while the pointer is over another app.
  public var allowedOperations: Set<DragOperation>
  /// The container of the first dragged board item, nil when every item came from
  /// outside.
  public var source: TargetID?
  /// The items a drop into another app took, once it did (seen by `dragEnded`).
  public var takenOutside: [ItemID]?
}
