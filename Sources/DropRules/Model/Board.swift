/// The set of drop targets and the items they hold.
///
/// A board is a value: a drag stages its changes on a copy and the host commits the
/// copy or throws it away, so a rollback can never leave half a change behind.
public struct Board: Hashable, Sendable {
  /// Targets in declaration order (later ones are drawn on top).
  public private(set) var targetOrder: [TargetID]
  private var targetsByID: [TargetID: DropTarget]
  /// Every known item: those on the board and detached ones (new copies, removed items).
  private var itemsByID: [ItemID: DragItem]
  private var containers: [ItemID: TargetID]

  /// Builds a board, checking that ids are unique, parents exist without cycles and no
  /// item sits in two places.
  public init(targets: [DropTarget], items: [DragItem]) throws(BoardError) {
    targetOrder = []
    targetsByID = [:]
    itemsByID = [:]
    containers = [:]
    for item in items {
      guard itemsByID.updateValue(item, forKey: item.id) == nil else { throw .duplicateItem(item.id) }
    }
    for target in targets {
      guard targetsByID.updateValue(target, forKey: target.id) == nil else { throw .duplicateTarget(target.id) }
      targetOrder.append(target.id)
      for itemID in target.items {
        guard itemsByID[itemID] != nil else { throw .unknownItem(itemID) }
        if let other = containers.updateValue(target.id, forKey: itemID) {
          throw .itemInTwoPlaces(itemID, other, target.id)
        }
      }
    }
    for target in targets {
      var seen: Set<TargetID> = [target.id]
      var parent = target.parent
      while let current = parent {
        guard let next = targetsByID[current] else { throw .unknownParent(target.id, current) }
        guard seen.insert(current).inserted else { throw .parentCycle(target.id) }
        parent = next.parent
      }
    }
  }

  public init() {
    targetOrder = []
    targetsByID = [:]
    itemsByID = [:]
    containers = [:]
  }

  // MARK: Reading

  public var targets: [DropTarget] { targetOrder.compactMap { targetsByID[$0] } }

  public func target(_ id: TargetID) -> DropTarget? { targetsByID[id] }

  public func item(_ id: ItemID) -> DragItem? { itemsByID[id] }

  /// The items a target holds, in order.
  public func items(in target: TargetID) -> [ItemID] { targetsByID[target]?.items ?? [] }

  /// Where an item sits: its container and 1-based index; nil for a detached item.
  public func place(of item: ItemID) -> (container: TargetID, index: Int)? {
    guard let container = containers[item],
      let offset = targetsByID[container]?.items.firstIndex(of: item)
    else { return nil }
    return (container, offset + 1)
  }

  /// Whether the item is on the board (not detached, not unknown).
  public func contains(item: ItemID) -> Bool { containers[item] != nil }

  /// Every item on the board, target by target.
  public var placedItems: [ItemID] { targetOrder.flatMap { targetsByID[$0]?.items ?? [] } }

  // MARK: Changing

  /// Registers a detached item (an external one, or a fresh copy).
  public mutating func addDetached(_ item: DragItem) throws(BoardError) {
    guard itemsByID[item.id] == nil else { throw .duplicateItem(item.id) }
    itemsByID[item.id] = item
  }

  /// Moves or places `items` together at the gap `gap` of `target`, in the order given;
  /// each goes right after the one before, wherever the items came from.
  public mutating func insert(_ items: [ItemID], into target: TargetID, at gap: Int?) throws(BoardError) {
    var gap = gap
    for item in items {
      try insert(item, into: target, at: gap)
      gap = place(of: item).map { $0.index + 1 }
    }
  }

  /// Moves `item` into the gap `gap` of `target` (1 is before the first item, `count + 1`
  /// after the last, nil appends, out of range is clamped), or places a detached item there.
  ///
  /// The gap names a position in the list as it is now; when the item already sits in
  /// that list, the host accounts for its removal, so the gaps just before and after
  /// the item leave the list unchanged.
  public mutating func insert(_ item: ItemID, into target: TargetID, at gap: Int?) throws(BoardError) {
    guard itemsByID[item] != nil else { throw .unknownItem(item) }
    guard var destination = targetsByID[target] else { throw .unknownTarget(target) }
    var clamped = min(max(gap ?? Int.max, 1), destination.items.count + 1)
    if containers[item] == target, let current = destination.items.firstIndex(of: item) {
      let position = current + 1
      if clamped == position || clamped == position + 1 { return }
      destination.items.remove(at: current)
      if clamped > position { clamped -= 1 }
    } else if let source = containers[item] {
      targetsByID[source]?.items.removeAll { $0 == item }
    }
    destination.items.insert(item, at: clamped - 1)
    targetsByID[target] = destination
    containers[item] = target
  }

  /// Takes `item` off `target`; it stays known, detached, for the rest of the drag.
  public mutating func remove(_ item: ItemID, from target: TargetID) throws(BoardError) {
    guard targetsByID[target] != nil else { throw .unknownTarget(target) }
    guard containers[item] == target else { throw .notInTarget(item, target) }
    targetsByID[target]?.items.removeAll { $0 == item }
    containers[item] = nil
  }

  /// Sets (or, with nil, removes) a key of a target's data.
  public mutating func setData(_ key: String, to value: JSONValue?, on target: TargetID) throws(BoardError) {
    guard targetsByID[target] != nil else { throw .unknownTarget(target) }
    targetsByID[target]?.data[key] = value
  }

  /// Forgets detached items, once a drag is over.
  public mutating func pruneDetached() {
    for id in itemsByID.keys where containers[id] == nil { itemsByID[id] = nil }
  }
}

/// A board that cannot be built or changed as asked.
public enum BoardError: Error, Equatable, CustomStringConvertible {
  case duplicateTarget(TargetID)
  case duplicateItem(ItemID)
  case unknownTarget(TargetID)
  case unknownItem(ItemID)
  case unknownParent(TargetID, TargetID)
  case parentCycle(TargetID)
  case itemInTwoPlaces(ItemID, TargetID, TargetID)
  case notInTarget(ItemID, TargetID)

  public var description: String {
    switch self {
    case .duplicateTarget(let id): "duplicate target id '\(id)'"
    case .duplicateItem(let id): "duplicate item id '\(id)'"
    case .unknownTarget(let id): "no target with id '\(id)'"
    case .unknownItem(let id): "no item with id '\(id)'"
    case .unknownParent(let target, let parent): "target '\(target)' names parent '\(parent)', which does not exist"
    case .parentCycle(let id): "target '\(id)' is its own ancestor"
    case .itemInTwoPlaces(let item, let first, let second): "item '\(item)' is in both '\(first)' and '\(second)'"
    case .notInTarget(let item, let target): "item '\(item)' is not in target '\(target)'"
    }
  }
}
