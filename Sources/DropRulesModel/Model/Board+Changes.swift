/// Changes to a board, each returning the records that undo it.
extension Board {
  /// What restores the board to where it was before one change. A record costs what the
  /// change moved, never the length of the lists it touched.
  public enum Undo: Sendable {
    /// `count` items went into a target's list as a block at this offset: undoing takes
    /// them out again.
    case inserted(target: Int, at: Int, count: Int)
    /// These items left a target's list from these offsets (ascending, counted in the
    /// list before they left): undoing puts them back.
    case removed(target: Int, at: [Int], [ItemID])
    case container(ItemID, Int?)
    case data(target: Int, key: String, JSONValue?)
    /// A key of an item's data, and who paid for the item's data before the change.
    case itemData(ItemID, key: String, JSONValue?, payer: String?)
    case detached(ItemID)
    /// A target's parent before an item that stands for it moved.
    case parent(target: Int, TargetID?)
  }

  /// Registers a detached item (an external one, or a fresh copy). Its data counts as
  /// the board's: a thousand copies of an item hold a thousand copies of its data, which
  /// `payer` pays for (nil: no one, as for what an item brings from outside).
  @discardableResult
  public mutating func addDetached(_ item: DragItem, paidBy payer: String? = nil) throws(BoardError) -> [Undo] {
    guard itemsByID[item.id] == nil else { throw .duplicateItem(item.id) }
    // One item stands for a target, and only from the board: a copy of a folder row is a
    // plain item, never a second handle on the folder.
    guard item.opens == nil else { throw .detachedOpener(item.id) }
    itemsByID[item.id] = item
    accountData(of: item, adding: true, paidBy: payer)
    return [.detached(item.id)]
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
    return [.container(item, position), .removed(target: position, at: [offset], [item])]
      + carryOpenedTargets(of: CollectionOfOne(item))
  }

  /// Sets (or, with nil, removes) a key of a target's data.
  @discardableResult
  public mutating func setData(_ key: String, to value: JSONValue?, on target: TargetID) throws(BoardError) -> [Undo] {
    guard let position = positions[target] else { throw .unknownTarget(target) }
    let old = targets[position].data[key]
    targets[position].data[key] = value
    accountTargetData(key, from: old, to: value, at: position)
    return [.data(target: position, key: key, old)]
  }

  /// Sets (or, with nil, removes) a key of an item's data; the item may be on the board
  /// or detached (external, or a copy). `payer` pays for the item's whole data from now
  /// on (nil: whoever paid before).
  @discardableResult
  public mutating func setItemData(
    _ key: String, to value: JSONValue?, on item: ItemID, paidBy payer: String? = nil
  ) throws(BoardError) -> [Undo] {
    guard let existing = itemsByID[item] else { throw .unknownItem(item) }
    let old = existing.data[key]
    let previousPayer = dataAccount.itemPayers[item]
    if let payer { transferItemData(of: item, to: payer) }
    itemsByID[item]?.data[key] = value
    accountData(key, from: old, to: value, of: item)
    return [.itemData(item, key: key, old, payer: previousPayer)]
  }

  /// Reverts changes, given their undo records in the order the changes were made.
  public mutating func undo(_ records: [Undo]) {
    for record in records.reversed() {
      switch record {
      case .inserted(let position, let offset, let count):
        targets[position].items.removeSubrange(offset..<offset + count)
      case .removed(let position, let offsets, let items): restore(items, at: offsets, in: position)
      case .container(let item, let position): containers[item] = position
      case .data(let position, let key, let value):
        accountTargetData(key, from: targets[position].data[key], to: value, at: position)
        targets[position].data[key] = value
      case .itemData(let item, let key, let value, let payer):
        accountData(key, from: itemsByID[item]?.data[key], to: value, of: item)
        itemsByID[item]?.data[key] = value
        transferItemData(of: item, to: payer)
      case .detached(let item):
        if let removed = itemsByID.removeValue(forKey: item) { accountData(of: removed, adding: false) }
      case .parent(let position, let parent):
        targets[position].parent = parent
        treeGeneration.value += 1
      }
    }
  }

  /// Puts removed items back at their offsets (ascending), in one pass over the list.
  private mutating func restore(_ items: [ItemID], at offsets: [Int], in position: Int) {
    if items.count == 1, let offset = offsets.first, let item = items.first {
      targets[position].items.insert(item, at: offset)
      return
    }
    let remaining = targets[position].items
    var merged: [ItemID] = []
    merged.reserveCapacity(remaining.count + items.count)
    var next = remaining.startIndex
    for (offset, item) in zip(offsets, items) {
      let take = offset - merged.count
      merged += remaining[next..<next + take]
      next += take
      merged.append(item)
    }
    merged += remaining[next...]
    targets[position].items = merged
  }

  /// The ids of the targets that undo records touch.
  public func targets(touchedBy records: [Undo]) -> [TargetID] {
    // One change (a rule's every `target:set`) touches one target: no set to build.
    if records.count == 1, case .data(let position, _, _) = records[0] { return [targets[position].id] }
    var seen = Set<Int>()
    for record in records {
      switch record {
      case .inserted(let position, _, _), .removed(let position, _, _), .data(let position, _, _):
        seen.insert(position)
      // An item's data belongs to the target that holds it, if any.
      case .itemData(let item, _, _, _): if let position = containers[item] { seen.insert(position) }
      // A target carried along by its item is not a change of that target: the item's
      // containers are the ones touched (a source in dragEnded may move its own rows).
      case .container, .detached, .parent: break
      }
    }
    return seen.sorted().map { targets[$0].id }
  }

  /// Forgets the items that these changes left detached, once a drag is over.
  public mutating func pruneDetached(among records: [Undo]) {
    for record in records {
      switch record {
      case .detached(let item), .container(let item, _):
        if containers[item] == nil, let removed = itemsByID.removeValue(forKey: item) {
          accountData(of: removed, adding: false)
        }
      case .inserted, .removed, .data, .itemData, .parent: break
      }
    }
  }
}
