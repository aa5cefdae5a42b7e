/// Moving items into a target's list at a gap.
extension Board {
  /// `gap` within the gaps of the target at `position`: 1 (before its first item) to
  /// `count + 1` (after its last). Every gap a rule gives is read this way: an insert's,
  /// a proposal's, a step's own.
  func clampedGap(_ gap: Int, at position: Int) -> Int {
    min(max(gap, 1), targets[position].items.count + 1)
  }

  /// Any whole number as an insertion index, clamped to ±10^15: `clampedGap` then clamps
  /// it to a list. Every index that comes from outside (a rule's insert or proposal, a
  /// scenario step, a protocol move) goes through here, so none is refused for its size
  /// and none overflows the gap arithmetic.
  public static func index(_ whole: Int64) -> Int { Int(max(min(whole, indexBound), -indexBound)) }

  /// The same for a number, rounded down to a whole one; an infinity is clamped too, and
  /// NaN, which every caller refuses first with a message of its own, is 0 rather than a
  /// trap.
  public static func index(_ number: Double) -> Int {
    guard !number.isNaN else { return 0 }
    return Int(max(min(number, Double(indexBound)), -Double(indexBound)).rounded(.down))
  }

  private static let indexBound: Int64 = 1_000_000_000_000_000

  /// Moves `item` into the gap `gap` of `target` (1 is before the first item, `count + 1`
  /// after the last, nil appends, out of range is clamped), or places a detached item there.
  ///
  /// The gap names a position in the list as it is now; when the item already sits in
  /// that list, the host accounts for its removal, so the gaps just before and after
  /// the item leave the list unchanged.
  @discardableResult
  public mutating func insert(_ item: ItemID, into target: TargetID, at gap: Int?) throws(BoardError) -> [Undo] {
    guard itemsByID[item] != nil else { throw .unknownItem(item) }
    guard let destination = positions[target] else { throw .unknownTarget(target) }
    if let (item, opened) = containmentConflict(moving: CollectionOfOne(item), into: destination) {
      throw .wouldContainItself(item, opened, into: target)
    }
    var clamped = clampedGap(gap ?? Int.max, at: destination)
    let previous = containers[item]
    var undo: [Undo] = [.container(item, previous)]
    if let source = previous, let offset = targets[source].items.firstIndex(of: item) {
      if source == destination {
        let position = offset + 1
        if clamped == position || clamped == position + 1 { return [] }
        if clamped > position { clamped -= 1 }
      }
      targets[source].items.remove(at: offset)
      undo.append(.removed(target: source, at: [offset], [item]))
    }
    targets[destination].items.insert(item, at: clamped - 1)
    undo.append(.inserted(target: destination, at: clamped - 1, count: 1))
    containers[item] = destination
    return undo + carryOpenedTargets(of: CollectionOfOne(item))
  }

  /// Moves or places `items` together at the gap `gap` of `target`, in the order given;
  /// each goes right after the one before, wherever the items came from (an item named
  /// twice ends up where its last naming puts it). Nothing changes when an item or the
  /// target is unknown.
  ///
  /// The result is what inserting the items one at a time would give, each at the gap
  /// after the one before, but made in one pass over each list involved: the block goes
  /// where the first item alone would go, among the items that stay.
  @discardableResult
  public mutating func insert(_ items: [ItemID], into target: TargetID, at gap: Int?) throws(BoardError) -> [Undo] {
    // An item named again moves to follow the one named before it: the last naming
    // decides its place in the block.
    var seen: Set<ItemID> = []
    let block = Array(items.reversed().filter { seen.insert($0).inserted }.reversed())
    guard let first = items.first else { return [] }
    guard block.count > 1 else { return try insert(first, into: target, at: gap) }
    guard let destination = positions[target] else { throw .unknownTarget(target) }
    if let unknown = block.first(where: { itemsByID[$0] == nil }) { throw .unknownItem(unknown) }
    if let (item, opened) = containmentConflict(moving: block, into: destination) {
      throw .wouldContainItself(item, opened, into: target)
    }

    let offset = blockOffset(for: first, moving: seen, into: destination, at: gap)
    var undo = block.map { Undo.container($0, containers[$0]) }
    for source in Set(block.compactMap { containers[$0] }).sorted() {
      var offsets: [Int] = []
      var leaving: [ItemID] = []
      var staying: [ItemID] = []
      staying.reserveCapacity(targets[source].items.count)
      for (index, id) in targets[source].items.enumerated() {
        if seen.contains(id) {
          offsets.append(index)
          leaving.append(id)
        } else {
          staying.append(id)
        }
      }
      targets[source].items = staying
      undo.append(.removed(target: source, at: offsets, leaving))
    }
    targets[destination].items.insert(contentsOf: block, at: offset)
    undo.append(.inserted(target: destination, at: offset, count: block.count))
    for item in block { containers[item] = destination }
    return undo + carryOpenedTargets(of: block)
  }

  /// Where a block led by `first` goes in `destination`'s list once the block's items
  /// (`moving`) have left it: after as many staying items as precede `first` when it
  /// alone is inserted at `gap`.
  private func blockOffset(for first: ItemID, moving: Set<ItemID>, into destination: Int, at gap: Int?) -> Int {
    let list = targets[destination].items
    var clamped = min(max(gap ?? Int.max, 1), list.count + 1)
    var before = list[..<(clamped - 1)]
    if containers[first] == destination, let current = list.firstIndex(of: first) {
      let position = current + 1
      if clamped == position || clamped == position + 1 {
        before = list[..<current]  // the first item stays where it is
      } else if clamped > position {
        clamped -= 1
        before = list[..<clamped]  // the items before the gap, the first item among them
      }
    }
    return before.reduce(0) { $0 + (moving.contains($1) ? 0 : 1) }
  }
}
