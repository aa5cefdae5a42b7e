/// The undo records of a drag's staged changes, kept so that their memory stays bounded
/// by the data they restore, however often a rule rewrites the same key.
///
/// A rollback goes back either to the start of the call that failed or to the start of
/// the transaction (the drag, or one `dragEnded`). So of all the records of one data key
/// (a target's or an item's), only two can ever be replayed: the first of the
/// transaction, which holds its value at the start, and the first of the current call,
/// which holds its value when the call began. Later records of a key in the same call
/// are dropped as they come, and when a call ends, its records of keys an earlier call
/// recorded are dropped too. A rule that replaces a 4 MiB value on every pointer step
/// holds one old value, not one per step.
struct UndoLog {
  /// A data key: a target's (by board position) or an item's.
  private enum DataKey: Hashable {
    case target(Int, String)
    case item(ItemID, String)
  }

  /// The records, in the order the changes were made.
  private(set) var records: [Board.Undo] = []
  /// The data keys recorded by calls that have ended.
  private var keysOfEarlierCalls: Set<DataKey> = []
  /// The data keys the current call recorded.
  private var keysOfThisCall: Set<DataKey> = []

  init(_ records: [Board.Undo] = []) { self.records = records }

  var count: Int { records.count }
  var isEmpty: Bool { records.isEmpty }

  /// Adds a change's records, less those of data keys this call recorded already.
  mutating func append(_ new: [Board.Undo]) {
    for record in new {
      if let key = Self.key(of: record), !keysOfThisCall.insert(key).inserted { continue }
      records.append(record)
    }
  }

  /// A call that began at `start` returned: its records of keys that an earlier call
  /// recorded are no longer needed.
  mutating func endCall(from start: Int) {
    defer {
      keysOfEarlierCalls.formUnion(keysOfThisCall)
      keysOfThisCall = []
    }
    guard !keysOfEarlierCalls.isEmpty, records.count > start else { return }
    var kept = Array(records[..<start])
    for record in records[start...] {
      if let key = Self.key(of: record), keysOfEarlierCalls.contains(key) { continue }
      kept.append(record)
    }
    records = kept
  }

  /// Takes the records a call that began at `start` made, for rolling them back.
  mutating func takeCall(from start: Int) -> [Board.Undo] {
    keysOfThisCall = []
    guard records.count > start else { return [] }
    defer { records.removeSubrange(start...) }
    return Array(records[start...])
  }

  private static func key(of record: Board.Undo) -> DataKey? {
    switch record {
    case .data(let position, let key, _): .target(position, key)
    case .itemData(let item, let key, _): .item(item, key)
    case .inserted, .removed, .container, .detached: nil
    }
  }
}
