/// The set of drop targets and the items they hold.
///
/// A board is a value. During a drag the engine changes its board in place and keeps
/// the ``Undo`` records each change returns: a rollback replays them, a commit drops
/// them, so both cost what the drag changed, never the size of the board.
public struct Board: Hashable, Sendable, Codable {
  /// Targets in declaration order (later ones are drawn on top).
  public internal(set) var targets: [DropTarget]
  private(set) var positions: [TargetID: Int]
  /// Every known item: those on the board and detached ones (new copies, removed items).
  var itemsByID: [ItemID: DragItem]
  /// The position of the target each placed item is in.
  var containers: [ItemID: Int]
  /// The bytes of data the targets hold (see Board+DataAccount.swift).
  var dataAccount = DataAccount()
  /// Moves whenever a target's parent changes (see Board+Tree.swift).
  public internal(set) var treeGeneration = Generation()
  /// Moves whenever a target's frame changes.
  public internal(set) var frameGeneration = Generation()

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
    try adoptOpenedTargets()
    // Walks each parent chain once: a target whose chain is known good ends the walk.
    // The board's own targets: adopting opened targets may have given some a parent.
    let targets = self.targets
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
    startDataAccount()
  }

  /// An empty board: no targets, no items.
  public init() {
    targets = []
    positions = [:]
    itemsByID = [:]
    containers = [:]
  }

  // MARK: Reading

  /// Target ids in declaration order.
  public var targetOrder: [TargetID] { targets.map(\.id) }

  /// The target with this id, or nil.
  public func target(_ id: TargetID) -> DropTarget? { positions[id].map { targets[$0] } }

  /// One key of a target's data, nil for a missing key or target. Read in place: a copy
  /// of the target would retain all it holds.
  public func dataValue(_ key: String, of target: TargetID) -> JSONValue? {
    guard let position = positions[target] else { return nil }
    return targets[position].data[key]
  }

  /// The position of a target in ``targets``; stable while the board is not replaced.
  public func position(of id: TargetID) -> Int? { positions[id] }

  /// The item with this id, on a target or detached (a new copy, a removed item), or nil.
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
}

/// A board that cannot be built or changed as asked.
public enum BoardError: Error, Equatable, Codable, CustomStringConvertible {
  case duplicateTarget(TargetID)
  case duplicateItem(ItemID)
  case unknownTarget(TargetID)
  case unknownItem(ItemID)
  case unknownParent(TargetID, TargetID)
  case parentCycle(TargetID)
  case itemInTwoPlaces(ItemID, TargetID, TargetID)
  case notInTarget(ItemID, TargetID)
  case unknownOpenedTarget(ItemID, TargetID)
  case openedTwice(TargetID, ItemID, ItemID)
  case openerElsewhere(ItemID, TargetID, parent: TargetID, container: TargetID)
  case wouldContainItself(ItemID, TargetID, into: TargetID)
  case detachedOpener(ItemID)

  /// What is wrong with the board, naming the ids involved.
  public var description: String {
    switch self {
    case .duplicateTarget(let id): "duplicate target id '\(id.capped(.name))'"
    case .duplicateItem(let id): "duplicate item id '\(id.capped(.name))'"
    case .unknownTarget(let id): "no target with id '\(id.capped(.name))'"
    case .unknownItem(let id): "no item with id '\(id.capped(.name))'"
    case .unknownParent(let target, let parent):
      "target '\(target.capped(.name))' names parent '\(parent.capped(.name))', which does not exist"
    case .parentCycle(let id): "target '\(id.capped(.name))' is its own ancestor"
    case .itemInTwoPlaces(let item, let first, let second):
      "item '\(item.capped(.name))' is in both '\(first.capped(.name))' and '\(second.capped(.name))'"
    case .notInTarget(let item, let target): "item '\(item.capped(.name))' is not in target '\(target.capped(.name))'"
    case .unknownOpenedTarget(let item, let target):
      "item '\(item.capped(.name))' opens '\(target.capped(.name))', which does not exist"
    case .openedTwice(let target, let first, let second):
      "target '\(target.capped(.name))' is opened by two items, '\(first.capped(.name))' and '\(second.capped(.name))'; one item stands for a target"
    case .openerElsewhere(let item, let target, let parent, let container):
      "target '\(target.capped(.name))' names parent '\(parent.capped(.name))', but item '\(item.capped(.name))' that opens it is in '\(container.capped(.name))' "
        + "(leave the parent out: the item's container is the parent)"
    case .wouldContainItself(let item, let opened, let destination):
      "moving item '\(item.capped(.name))' into '\(destination.capped(.name))' would put target '\(opened.capped(.name))' inside itself"
    case .detachedOpener(let item):
      "item '\(item.capped(.name))' opens a target, but only an item on the board can stand for one (a copy or an "
        + "external item cannot)"
    }
  }
}
