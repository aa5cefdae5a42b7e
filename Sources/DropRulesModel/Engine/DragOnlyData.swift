/// Data keys a drag sets on targets for itself (`target:setForDrag`): hover highlights,
/// placeholders, "drop here" flags. Every handler of the drag reads them in
/// `target.data`, over the target's own data, and they end with the drag, performed or
/// not.
///
/// They live here, beside the board and never in it, so no commit can keep them: the
/// board a drop commits has no drag-only key to forget, whatever the rules did.
struct DragOnlyData {
  /// The keys set on each target (a board position). A nil value hides the target's
  /// own key for the rest of the drag.
  private(set) var values: [Int: [String: JSONValue?]] = [:]
  /// How to undo each change, in order, bounded as board changes are (``RollbackLog``).
  private var undoLog = RollbackLog<Change>()

  /// A key on a target, and what it held for the drag before a change.
  private struct Change: RollbackRecord {
    struct Key: Hashable {
      var position: Int
      var key: String
    }
    var position: Int
    var key: String
    var old: JSONValue??
    var rollbackKey: Key? { Key(position: position, key: key) }
  }
  /// Bytes of the values held, counted as target data is (``Board/bytes(of:_:)``), in
  /// all and by target position.
  private(set) var bytes = 0
  private(set) var bytesByPosition: [Int: Int] = [:]

  /// How many changes were made: a call's changes are those past the count at its start.
  var changeCount: Int { undoLog.count }

  /// Sets `key` on the target at `position` for the rest of the drag; nil hides the
  /// target's own value.
  mutating func set(_ key: String, to value: JSONValue?, on position: Int) {
    record(key, at: position)
    write(key, .some(value), on: position)
  }

  /// Drops the drag's own value of `key` on the target at `position`, if it has one: the
  /// target's own data shows through again.
  mutating func forget(_ key: String, at position: Int) {
    guard values[position]?[key] != nil else { return }
    record(key, at: position)
    write(key, nil, on: position)
  }

  /// Keeps what `key` holds now for undoing, unless this call kept it already.
  private mutating func record(_ key: String, at position: Int) {
    undoLog.append(Change(position: position, key: key, old: values[position]?[key]))
  }

  /// A call whose changes began at `start` returned: see ``RollbackLog/endCall(from:)``.
  mutating func endCall(from start: Int) { undoLog.endCall(from: start) }

  /// Undoes the changes made after the first `count`.
  mutating func rollBack(to count: Int) {
    for change in undoLog.takeCall(from: count).reversed() { write(change.key, change.old, on: change.position) }
  }

  /// A target's data as the drag's handlers read it: its own data, then this drag's keys.
  func data(_ own: [String: JSONValue], at position: Int) -> [String: JSONValue] {
    guard let keys = values[position] else { return own }
    var merged = own
    for (key, value) in keys { merged[key] = value }
    return merged
  }

  /// How many keys the drag set on the target at `position`.
  func keyCount(at position: Int) -> Int { values[position]?.count ?? 0 }

  /// What `key` on the target at `position` holds for the drag: nil when the drag set
  /// nothing there, `.some(nil)` when it hid the key.
  func value(_ key: String, at position: Int) -> JSONValue?? { values[position]?[key] }

  private mutating func write(_ key: String, _ value: JSONValue??, on position: Int) {
    let old = values[position]?[key]
    let change = Self.bytes(key, value) - Self.bytes(key, old)
    bytes += change
    bytesByPosition[position, default: 0] += change
    if bytesByPosition[position] == 0 { bytesByPosition[position] = nil }
    values[position, default: [:]][key] = value
    if values[position]?.isEmpty == true { values[position] = nil }
  }

  private static func bytes(_ key: String, _ value: JSONValue??) -> Int {
    switch value {
    case .none: 0
    case .some(let set): Board.bytes(of: key, set ?? .null)
    }
  }
}

/// What handlers read of targets' data: `board` as the drag staged it, with the drag's
/// own keys over it. Here once for the engine and a worker's copy of it (``ReplicaView``).
extension DragOnlyData {
  /// A target's data: its staged data, then the drag's own keys.
  func data(of target: TargetID, on board: Board) -> [String: JSONValue]? {
    guard let position = board.position(of: target) else { return nil }
    return data(board.targets[position].data, at: position)
  }

  /// At most how many keys a target's data has (its own and the drag's, a key in both
  /// counted twice), without merging them.
  func dataKeyCount(of target: TargetID, on board: Board) -> Int? {
    guard let position = board.position(of: target) else { return nil }
    return board.targets[position].data.count + keyCount(at: position)
  }

  /// One key of a target's data: the drag's own value, else the target's.
  func dataValue(_ key: String, of target: TargetID, on board: Board) -> JSONValue? {
    guard let position = board.position(of: target) else { return nil }
    if let forDrag = value(key, at: position) { return forDrag }
    return board.targets[position].data[key]
  }

  /// What the drag set `key` of a target to: nil when it set nothing there, `.some(nil)`
  /// when it hid the key.
  func dragOnlyValue(_ key: String, of target: TargetID, on board: Board) -> JSONValue?? {
    guard let position = board.position(of: target) else { return nil }
    return value(key, at: position)
  }

  /// Bytes of data rules hold on the targets of `board` beyond what it was made with,
  /// these keys included.
  func storedDataBytes(on board: Board) -> Int { board.storedDataBytes + bytes }

  /// What ``storedDataBytes(on:)`` counts on the targets of the types `counted` picks: a
  /// rule file's share of the board's data cap. Walks the types whose data changed and
  /// the targets the drag set keys on, not the board.
  func storedTargetDataBytes(on board: Board, ofTypes counted: (String) -> Bool) -> Int {
    var total = 0
    for type in board.typesWithStoredData where counted(type) { total += board.storedTargetDataBytes(ofType: type) }
    for (position, bytes) in bytesByPosition where counted(board.targets[position].type) { total += bytes }
    return total
  }

  /// A change was staged: a key a rule stores for good is no longer hidden behind what
  /// the drag set for itself (the last write wins for reads).
  mutating func forgetKeys(changedBy undo: [Board.Undo]) {
    guard changeCount > 0 else { return }
    for case .data(let position, let key, _) in undo { forget(key, at: position) }
  }
}
