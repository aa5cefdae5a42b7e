/// The bytes of target data a board holds, kept as it changes: what rules stored beyond
/// the data the board was made with is memory the host keeps on their behalf, which a
/// rule binding counts against its memory cap.
extension Board {
  /// Bookkeeping, not content: two boards with the same targets and items are equal,
  /// however their data came to be.
  struct DataAccount: Hashable, Sendable {
    /// The bytes of data the board holds now, and held when it was made.
    var bytes = 0
    var baseline = 0
    /// The same for targets' data alone, by target type: each rule file's share of the
    /// cap is the data on the targets of the types it serves.
    var targetBytes: [String: Int] = [:]
    var targetBaseline: [String: Int] = [:]
    /// The same for items' data, all items together.
    var itemBytes = 0
    var itemBaseline = 0

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

  /// Bytes of item data added since the board was made (0 when they hold less).
  public var storedItemDataBytes: Int { max(0, dataAccount.itemBytes - dataAccount.itemBaseline) }

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
    var items = 0
    for item in itemsByID.values {
      for (key, value) in item.data { items += Self.bytes(of: key, value) }
    }
    total += items
    dataAccount = DataAccount(
      bytes: total, baseline: total, targetBytes: byType, targetBaseline: byType, itemBytes: items, itemBaseline: items)
  }

  /// Counts an item's whole data in (an item joined the board) or out (it left).
  mutating func accountData(of item: DragItem, adding: Bool) {
    guard !item.data.isEmpty else { return }
    let bytes = Self.dataBytes(of: item)
    dataAccount.bytes += adding ? bytes : -bytes
    dataAccount.itemBytes += adding ? bytes : -bytes
  }

  /// The bytes of an item's own data, as the board's data cap counts them.
  public static func dataBytes(of item: DragItem) -> Int {
    item.data.reduce(0) { $0 + bytes(of: $1.key, $1.value) }
  }

  /// Records that `key` of an item's data went from `old` to `new`.
  mutating func accountData(_ key: String, from old: JSONValue?, to new: JSONValue?) {
    let change = Self.bytes(of: key, new) - Self.bytes(of: key, old)
    dataAccount.bytes += change
    dataAccount.itemBytes += change
  }

  /// Records that `key` of the data of the target at `position` went from `old` to `new`.
  mutating func accountTargetData(_ key: String, from old: JSONValue?, to new: JSONValue?, at position: Int) {
    let change = Self.bytes(of: key, new) - Self.bytes(of: key, old)
    dataAccount.bytes += change
    dataAccount.targetBytes[targets[position].type, default: 0] += change
  }
}
