/// A record a rollback replays; records of the same key restore the same value.
protocol RollbackRecord {
  associatedtype Key: Hashable
  /// The value the record restores (a data key), or nil for a record that is always kept.
  var rollbackKey: Key? { get }
}

/// Records for rolling a transaction back, kept so that their memory stays bounded by the
/// data they restore, however often a rule rewrites the same key.
///
/// A rollback goes back either to the start of the call that failed or to the start of
/// the transaction (the drag, or one `dragEnded`). So of all the records of one key, only
/// two can ever be replayed: the first of the transaction, which holds its value at the
/// start, and the first of the current call, which holds its value when the call began.
/// Later records of a key in the same call are dropped as they come, and when a call
/// ends, its records of keys an earlier call recorded are dropped too. A rule that
/// replaces a 4 MiB value on every pointer step holds one old value, not one per step.
struct RollbackLog<Record: RollbackRecord> {
  /// The records, in the order the changes were made.
  private(set) var records: [Record] = []
  /// The keys recorded by calls that have ended.
  private var keysOfEarlierCalls: Set<Record.Key> = []
  /// The keys the current call recorded.
  private var keysOfThisCall: Set<Record.Key> = []

  init(_ records: [Record] = []) { self.records = records }

  var count: Int { records.count }
  var isEmpty: Bool { records.isEmpty }

  /// Adds a record, unless this call recorded its key already.
  mutating func append(_ record: Record) {
    if let key = record.rollbackKey, !keysOfThisCall.insert(key).inserted { return }
    records.append(record)
  }

  /// Adds records, each as ``append(_:)`` does.
  mutating func append(_ new: [Record]) {
    for record in new { append(record) }
  }

  /// A call that began at `start` returned: its records of keys that an earlier call
  /// recorded are no longer needed.
  mutating func endCall(from start: Int) {
    defer {
      if !keysOfThisCall.isEmpty {
        keysOfEarlierCalls.formUnion(keysOfThisCall)
        // Kept for the next call: a rule that sets a key on every pointer step would
        // otherwise allocate the set again on every step.
        keysOfThisCall.removeAll(keepingCapacity: true)
      }
    }
    guard !keysOfEarlierCalls.isEmpty, records.count > start else { return }
    // In place, the kept records in their order: nothing is allocated per call.
    var kept = start
    for index in start..<records.count {
      if let key = records[index].rollbackKey, keysOfEarlierCalls.contains(key) { continue }
      if kept != index { records.swapAt(kept, index) }
      kept += 1
    }
    records.removeSubrange(kept...)
  }

  /// Takes the records a call that began at `start` made, for rolling them back.
  mutating func takeCall(from start: Int) -> [Record] {
    keysOfThisCall = []
    guard records.count > start else { return [] }
    defer { records.removeSubrange(start...) }
    return Array(records[start...])
  }
}

/// The undo records of a drag's staged board changes.
typealias UndoLog = RollbackLog<Board.Undo>

extension Board.Undo: RollbackRecord {
  /// A data key: a target's (by board position) or an item's.
  enum DataKey: Hashable {
    case target(Int, String)
    case item(ItemID, String)
  }

  var rollbackKey: DataKey? {
    switch self {
    case .data(let position, let key, _): .target(position, key)
    case .itemData(let item, let key, _, _): .item(item, key)
    case .inserted, .removed, .container, .detached, .parent: nil
    }
  }
}
