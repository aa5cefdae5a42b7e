/// The set of drop targets and the items they hold.
///
/// A board is a value. During a drag the engine changes its board in place and keeps
/// the ``Undo`` records each change returns: a rollback replays them, a commit drops
/// them, so both cost what the drag changed, never the size of the board.
public struct Board: Hashable, Sendable {
  /// Targets in declaration order (later ones are drawn on top).
  public private(set) var targets: [DropTarget]
  private var positions: [TargetID: Int]
  /// Every known item: those on the board and detached ones (new copies, removed items).
  private var itemsByID: [ItemID: DragItem]
  /// The position of the target each placed item is in.
  private var containers: [ItemID: Int]

  /// Builds a board, checking that ids are unique, parents exist without cycles and no
  /// item sits in two places.
  public init(targets: [DropTarget], items: [DragItem]) throws(BoardError) {
    self.init()
    self.targets.reserveCapacity(targets.count)
    positions.reserveCapacity(targets.count)
    itemsByID.reserveCapacity(items.count)
    containers.reserveCapacity(items.count)
    for item in items {
      guard itemsByID.updateValue(item, forKey: item.id) == nil else { throw .duplicateItem(item.id) }
    }
    for target in targets {
      guard positions.updateValue(self.targets.count, forKey: target.id) == nil else {
        throw .duplicateTarget(target.id)
      }
      for itemID in target.items {
        guard itemsByID[itemID] != nil else { throw .unknownItem(itemID) }
        if let other = containers.updateValue(self.targets.count, forKey: itemID) {
          throw .itemInTwoPlaces(itemID, targets[other].id, target.id)
        }
      }
      self.targets.append(target)
    }
    // Walks each parent chain once: a target whose chain is known good ends the walk.
    var state = [UInt8](repeating: 0, count: targets.count)  // 0 new, 1 on this walk, 2 checked
    for start in targets.indices where state[start] == 0 {
      var chain: [Int] = []
      var current: Int? = start
      while let position = current, state[position] != 2 {
        guard state[position] == 0 else { throw .parentCycle(targets[start].id) }
        state[position] = 1
        chain.append(position)
        guard let parent = targets[position].parent else { break }
        guard let next = positions[parent] else { throw .unknownParent(targets[position].id, parent) }
        current = next
      }
      for position in chain { state[position] = 2 }
    }
  }

  public init() {
    targets = []
    positions = [:]
    itemsByID = [:]
    containers = [:]
  }

  // MARK: Reading

  /// Target ids in declaration order.
  public var targetOrder: [TargetID] { targets.map(\.id) }

  public func target(_ id: TargetID) -> DropTarget? { positions[id].map { targets[$0] } }

  /// The position of a target in ``targets``; stable while the board is not replaced.
  public func position(of id: TargetID) -> Int? { positions[id] }

  public func item(_ id: ItemID) -> DragItem? { itemsByID[id] }

  /// The items a target holds, in order.
  public func items(in target: TargetID) -> [ItemID] { positions[target].map { targets[$0].items } ?? [] }

  /// Where an item sits: its container and 1-based index; nil for a detached item.
  public func place(of item: ItemID) -> (container: TargetID, index: Int)? {
    guard let position = containers[item], let offset = targets[position].items.firstIndex(of: item) else {
      return nil
    }
    return (targets[position].id, offset + 1)
  }

  /// The position in ``targets`` of the target an item sits in; nil for a detached item.
  /// Unlike ``place(of:)``, it never searches the target's list.
  public func containerPosition(of item: ItemID) -> Int? { containers[item] }

  /// The 1-based index of each of `items` that sits on the board, found in one pass over
  /// each list they sit in, where asking ``place(of:)`` item by item searches a list once
  /// per item.
  public func indexes(of items: [ItemID]) -> [ItemID: Int] {
    var wanted: [Int: Set<ItemID>] = [:]
    for item in items {
      if let position = containers[item] { wanted[position, default: []].insert(item) }
    }
    var indexes: [ItemID: Int] = [:]
    for (position, ids) in wanted {
      for (offset, id) in targets[position].items.enumerated() where ids.contains(id) { indexes[id] = offset + 1 }
    }
    return indexes
  }

  /// Whether the item is on the board (not detached, not unknown).
  public func contains(item: ItemID) -> Bool { containers[item] != nil }

  /// Every item on the board, target by target.
  public var placedItems: [ItemID] { targets.flatMap(\.items) }

  // MARK: Changing

  /// What restores the board to where it was before one change. Each record costs the
  /// same whatever the length of the lists it touches.
  public enum Undo: Sendable {
    /// An item went into a target's list at this offset: undoing takes it out again.
    case inserted(target: Int, at: Int)
    /// This item left a target's list from this offset: undoing puts it back.
    case removed(target: Int, at: Int, ItemID)
    case container(ItemID, Int?)
    case data(target: Int, key: String, JSONValue?)
    case detached(ItemID)
  }

  /// Registers a detached item (an external one, or a fresh copy).
  @discardableResult
  public mutating func addDetached(_ item: DragItem) throws(BoardError) -> [Undo] {
    guard itemsByID[item.id] == nil else { throw .duplicateItem(item.id) }
    itemsByID[item.id] = item
    return [.detached(item.id)]
  }

  /// Moves or places `items` together at the gap `gap` of `target`, in the order given;
  /// each goes right after the one before, wherever the items came from.
  @discardableResult
  public mutating func insert(_ items: [ItemID], into target: TargetID, at gap: Int?) throws(BoardError) -> [Undo] {
    var gap = gap
    var undo: [Undo] = []
    for item in items {
      let (records, next) = try insertOne(item, into: target, at: gap)
      undo += records
      gap = next
    }
    return undo
  }

  /// Moves `item` into the gap `gap` of `target` (1 is before the first item, `count + 1`
  /// after the last, nil appends, out of range is clamped), or places a detached item there.
  ///
  /// The gap names a position in the list as it is now; when the item already sits in
  /// that list, the host accounts for its removal, so the gaps just before and after
  /// the item leave the list unchanged.
  @discardableResult
  public mutating func insert(_ item: ItemID, into target: TargetID, at gap: Int?) throws(BoardError) -> [Undo] {
    try insertOne(item, into: target, at: gap).undo
  }

  /// Inserts one item; returns the undo records and the gap right after the item.
  private mutating func insertOne(
    _ item: ItemID, into target: TargetID, at gap: Int?
  ) throws(BoardError) -> (undo: [Undo], next: Int) {
    guard itemsByID[item] != nil else { throw .unknownItem(item) }
    guard let destination = positions[target] else { throw .unknownTarget(target) }
    var clamped = min(max(gap ?? Int.max, 1), targets[destination].items.count + 1)
    let previous = containers[item]
    var undo: [Undo] = [.container(item, previous)]
    if let source = previous, let offset = targets[source].items.firstIndex(of: item) {
      if source == destination {
        let position = offset + 1
        if clamped == position || clamped == position + 1 { return ([], position + 1) }
        if clamped > position { clamped -= 1 }
      }
      targets[source].items.remove(at: offset)
      undo.append(.removed(target: source, at: offset, item))
    }
    targets[destination].items.insert(item, at: clamped - 1)
    undo.append(.inserted(target: destination, at: clamped - 1))
    containers[item] = destination
    return (undo, clamped + 1)
  }

  /// Takes `item` off `target`; it stays known, detached, for the rest of the drag.
  @discardableResult
  public mutating func remove(_ item: ItemID, from target: TargetID) throws(BoardError) -> [Undo] {
    guard let position = positions[target] else { throw .unknownTarget(target) }
    guard containers[item] == position, let offset = targets[position].items.firstIndex(of: item) else {
      throw .notInTarget(item, target)
    }
    targets[position].items.remove(at: offset)
    containers[item] = nil
    return [.container(item, position), .removed(target: position, at: offset, item)]
  }

  /// Sets (or, with nil, removes) a key of a target's data.
  @discardableResult
  public mutating func setData(_ key: String, to value: JSONValue?, on target: TargetID) throws(BoardError) -> [Undo] {
    guard let position = positions[target] else { throw .unknownTarget(target) }
    let undo: [Undo] = [.data(target: position, key: key, targets[position].data[key])]
    targets[position].data[key] = value
    return undo
  }

  /// Reverts changes, given their undo records in the order the changes were made.
  public mutating func undo(_ records: [Undo]) {
    for record in records.reversed() {
      switch record {
      case .inserted(let position, let offset): targets[position].items.remove(at: offset)
      case .removed(let position, let offset, let item): targets[position].items.insert(item, at: offset)
      case .container(let item, let position): containers[item] = position
      case .data(let position, let key, let value): targets[position].data[key] = value
      case .detached(let item): itemsByID[item] = nil
      }
    }
  }

  /// The ids of the targets that undo records touch.
  public func targets(touchedBy records: [Undo]) -> [TargetID] {
    var seen = Set<Int>()
    for record in records {
      switch record {
      case .inserted(let position, _), .removed(let position, _, _), .data(let position, _, _): seen.insert(position)
      case .container, .detached: break
      }
    }
    return seen.sorted().map { targets[$0].id }
  }

  /// Forgets the items that these changes left detached, once a drag is over.
  public mutating func pruneDetached(among records: [Undo]) {
    for record in records {
      switch record {
      case .detached(let item), .container(let item, _):
        if containers[item] == nil { itemsByID[item] = nil }
      case .inserted, .removed, .data: break
      }
    }
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
