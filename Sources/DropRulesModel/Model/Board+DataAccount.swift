/// The bytes of target data a board holds, kept as it changes: what rules stored beyond
/// the data the board was made with is memory the host keeps on their behalf, which a
/// rule binding counts against its memory cap.
extension Board {
  /// Bookkeeping, not content: two boards with the same targets and items are equal,
  /// however their data came to be.
  struct DataAccount: Hashable, Sendable, Codable {
    /// The bytes of data the board holds now, and held when it was made.
    var bytes = 0
    var baseline = 0
    /// The same for targets' data alone, by target type: each rule file's share of the
    /// cap is the data on the targets of the types it serves.
    var targetBytes: [String: Int] = [:]
    var targetBaseline: [String: Int] = [:]
    /// Who pays for each item's data: the last to change it (a rule file's share of the
    /// cap, named by the binding), or no one for data the board was made with or an
    /// item came with from outside until someone changes it.
    var itemPayers: [ItemID: String] = [:]
    /// The bytes of item data each payer pays for.
    var paidItemBytes: [String: Int] = [:]

    static func == (lhs: DataAccount, rhs: DataAccount) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
  }

  /// Bytes of target data added since the board was made (0 when it holds less): what
  /// rules stored beyond the data they were given.
  public var storedDataBytes: Int { max(0, dataAccount.bytes - dataAccount.baseline) }

  /// What one key of a target's data costs, key included.
  package static func bytes(of key: String, _ value: JSONValue?) -> Int {
    value.map { 32 + key.utf8.count + $0.estimatedBytes } ?? 0
  }

  /// Bytes of data added since the board was made on targets of `type` (0 when they hold
  /// less).
  public func storedTargetDataBytes(ofType type: String) -> Int {
    max(0, (dataAccount.targetBytes[type] ?? 0) - (dataAccount.targetBaseline[type] ?? 0))
  }

  /// Bytes of item data `payer` pays for: the whole data of every item it was the last
  /// to change, wherever those items went since.
  public func itemDataBytes(paidBy payer: String) -> Int { dataAccount.paidItemBytes[payer] ?? 0 }

  /// Who pays for `item`'s data: the last to change it; nil for no one.
  public func itemDataPayer(of item: ItemID) -> String? { dataAccount.itemPayers[item] }

  /// The target types whose targets' data changed since the board was made.
  public var typesWithStoredData: Dictionary<String, Int>.Keys { dataAccount.targetBytes.keys }

  /// Counts every target's data as the board's baseline.
  mutating func startDataAccount() {
    var total = 0
    var byType: [String: Int] = [:]
    for target in targets {
      var own = 0
      for (key, value) in target.data { own += Self.bytes(of: key, value) }
      if own != 0 { byType[target.type, default: 0] += own }
      total += own
    }
    for item in itemsByID.values {
      for (key, value) in item.data { total += Self.bytes(of: key, value) }
    }
    dataAccount = DataAccount(bytes: total, baseline: total, targetBytes: byType, targetBaseline: byType)
  }

  /// Counts an item's whole data in (an item joined the board, paid for by `payer`) or
  /// out (it left, and its payer pays no more).
  mutating func accountData(of item: DragItem, adding: Bool, paidBy payer: String? = nil) {
    let bytes = Self.dataBytes(of: item)
    dataAccount.bytes += adding ? bytes : -bytes
    if adding {
      guard let payer else { return }
      dataAccount.itemPayers[item.id] = payer
      dataAccount.paidItemBytes[payer, default: 0] += bytes
    } else if let payer = dataAccount.itemPayers.removeValue(forKey: item.id) {
      dataAccount.paidItemBytes[payer, default: 0] -= bytes
    }
  }

  /// Makes `payer` pay for the whole data of `item` from now on (nil: no one).
  mutating func transferItemData(of item: ItemID, to payer: String?) {
    let previous = dataAccount.itemPayers[item]
    guard previous != payer, let held = itemsByID[item] else { return }
    let bytes = Self.dataBytes(of: held)
    if let previous { dataAccount.paidItemBytes[previous, default: 0] -= bytes }
    if let payer { dataAccount.paidItemBytes[payer, default: 0] += bytes }
    dataAccount.itemPayers[item] = payer
  }

  /// The bytes of an item's own data, as the board's data cap counts them.
  public static func dataBytes(of item: DragItem) -> Int {
    item.data.reduce(0) { $0 + bytes(of: $1.key, $1.value) }
  }

  /// Records that `key` of `item`'s data went from `old` to `new`: its payer pays the change.
  mutating func accountData(_ key: String, from old: JSONValue?, to new: JSONValue?, of item: ItemID) {
    let change = Self.bytes(of: key, new) - Self.bytes(of: key, old)
    dataAccount.bytes += change
    if let payer = dataAccount.itemPayers[item] { dataAccount.paidItemBytes[payer, default: 0] += change }
  }

  /// Records that `key` of the data of the target at `position` went from `old` to `new`.
  mutating func accountTargetData(_ key: String, from old: JSONValue?, to new: JSONValue?, at position: Int) {
    let change = Self.bytes(of: key, new) - Self.bytes(of: key, old)
    dataAccount.bytes += change
    dataAccount.targetBytes[targets[position].type, default: 0] += change
  }
}
