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

  /// Counts every target's data as the board's baseline.
  mutating func startDataAccount() {
    var total = 0
    for target in targets {
      for (key, value) in target.data { total += Self.bytes(of: key, value) }
    }
    for item in itemsByID.values {
      for (key, value) in item.data { total += Self.bytes(of: key, value) }
    }
    dataAccount = DataAccount(bytes: total, baseline: total)
  }

  /// Counts an item's whole data in (an item joined the board) or out (it left).
  mutating func accountData(of item: DragItem, adding: Bool) {
    guard !item.data.isEmpty else { return }
    let bytes = Self.dataBytes(of: item)
    dataAccount.bytes += adding ? bytes : -bytes
  }

  /// The bytes of an item's own data, as the board's data cap counts them.
  public static func dataBytes(of item: DragItem) -> Int {
    item.data.reduce(0) { $0 + bytes(of: $1.key, $1.value) }
  }

  /// Records that `key` of a target's data went from `old` to `new`.
  mutating func accountData(_ key: String, from old: JSONValue?, to new: JSONValue?) {
    dataAccount.bytes += Self.bytes(of: key, new) - Self.bytes(of: key, old)
  }
}
