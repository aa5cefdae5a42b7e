/// One change a rule asks of the board, as a value: what `target:insert`,
/// `target:remove`, `target:set`, `item:set` and `item:copy` stage.
///
/// A value rather than a closure, so that the engine's ``RuleView/stage(_:)`` can be
/// asked from anywhere, a rule file's worker process included, and applied the same way.
public enum BoardChange: Hashable, Sendable, Codable {
  /// Items go into a target's list at a gap (nil: the end).
  case insert([ItemID], into: TargetID, at: Int?)
  /// An item leaves a target's list, staying known, detached, for the rest of the drag.
  case remove(ItemID, from: TargetID)
  /// A key of a target's data is set (nil: removed).
  case setData(String, to: JSONValue?, on: TargetID)
  /// A key of an item's data is set (nil: removed); `payer` pays for the item's whole
  /// data from then on.
  case setItemData(String, to: JSONValue?, on: ItemID, paidBy: String?)
  /// A detached item (a rule's copy) joins the board's known items, paid for by `payer`.
  case addDetached(DragItem, paidBy: String?)
}

extension Board {
  /// Applies `change`, returning the records that undo it.
  public mutating func apply(_ change: BoardChange) throws(BoardError) -> [Undo] {
    switch change {
    case .insert(let items, let target, let gap): try insert(items, into: target, at: gap)
    case .remove(let item, let target): try remove(item, from: target)
    case .setData(let key, let value, let target): try setData(key, to: value, on: target)
    case .setItemData(let key, let value, let item, let payer): try setItemData(key, to: value, on: item, paidBy: payer)
    case .addDetached(let item, let payer): try addDetached(item, paidBy: payer)
    }
  }
}
