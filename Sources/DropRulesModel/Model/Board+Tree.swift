/// Containers that move: an item may stand for a target (``DragItem/opens``), which is
/// then nested in whatever target holds the item. Every move of such an item goes
/// through ``Board/insert(_:into:at:)`` or ``Board/remove(_:from:)``, and they carry the
/// target along or refuse, so no change of any rule can put a target inside itself.
extension Board {
  /// A count that changes whenever a target's parent or frame changes, and that a board's
  /// equality ignores: two boards that hold the same are equal, however they got there.
  /// The engine compares it to rebuild its hit-testing only when the tree moved.
  public struct Generation: Hashable, Sendable, Codable {
    /// How many changes there have been.
    public internal(set) var value = 0
    /// Always true: a board's history is not part of what it holds.
    public static func == (_: Self, _: Self) -> Bool { true }
    /// Hashes nothing, as equality compares nothing.
    public func hash(into _: inout Hasher) {}
  }

  /// Checks the items that stand for targets when a board is built: the target exists,
  /// no other item stands for it, and it is nested in the item's container (set when the
  /// scenario left its parent out).
  mutating func adoptOpenedTargets() throws(BoardError) {
    var openers: [Int: ItemID] = [:]
    for (id, item) in itemsByID {
      guard let opened = item.opens else { continue }
      guard let position = positions[opened] else { throw .unknownOpenedTarget(id, opened) }
      if let other = openers.updateValue(id, forKey: position) {
        throw .openedTwice(opened, min(other, id), max(other, id))
      }
      guard let container = containers[id] else { continue }
      let containerID = targets[container].id
      switch targets[position].parent {
      case nil: targets[position].parent = containerID
      case containerID?: break
      case let parent?: throw .openerElsewhere(id, opened, parent: parent, container: containerID)
      }
    }
  }

  /// Whether `position` is `ancestor` or lies somewhere inside it.
  public func isWithin(_ position: Int, subtreeOf ancestor: Int) -> Bool {
    var current: Int? = position
    var steps = 0
    while let next = current, steps <= targets.count {
      if next == ancestor { return true }
      current = targets[next].parent.flatMap { positions[$0] }
      steps += 1
    }
    return false
  }

  /// The first of `items` that stands for a target the destination lies in (the target
  /// itself or an ancestor of it), with that target: moving it there would put a target
  /// inside itself.
  public func containmentConflict(moving items: some Sequence<ItemID>, into destination: Int)
    -> (item: ItemID, opened: TargetID)?
  {
    for item in items {
      guard let opened = itemsByID[item]?.opens, let position = positions[opened] else { continue }
      if isWithin(destination, subtreeOf: position) { return (item, opened) }
    }
    return nil
  }

  /// Nests the targets that moved items stand for in the items' new containers (none for
  /// a detached item), returning the undo records.
  mutating func carryOpenedTargets(of items: some Sequence<ItemID>) -> [Undo] {
    var undo: [Undo] = []
    for item in items {
      guard let opened = itemsByID[item]?.opens, let position = positions[opened] else { continue }
      let parent = containers[item].map { targets[$0].id }
      let old = targets[position].parent
      guard old != parent else { continue }
      targets[position].parent = parent
      treeGeneration.value += 1
      undo.append(.parent(target: position, old))
    }
    return undo
  }

  /// Moves a target's frame after a layout change: the app's, not a rule's, so a drag's
  /// rollback keeps it.
  public mutating func setFrame(_ frame: Rect, of target: TargetID) throws(BoardError) {
    try setFrames([target: frame])
  }

  /// Moves many targets' frames as one change: all of them or, when an id is unknown,
  /// none. The frame generation moves once, so what follows the frames (hit-testing)
  /// is rebuilt once, not once per frame.
  public mutating func setFrames(_ frames: [TargetID: Rect]) throws(BoardError) {
    for id in frames.keys where positions[id] == nil { throw .unknownTarget(id) }
    var changed = false
    for (id, frame) in frames {
      guard let position = positions[id], targets[position].frame != frame else { continue }
      targets[position].frame = frame
      changed = true
    }
    if changed { frameGeneration.value += 1 }
  }
}
