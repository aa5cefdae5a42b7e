/// Drag-only data (`target:setForDrag`): keys every handler of a drag reads in
/// `target.data` and that end with the drag, performed or not. They are kept beside the
/// board (``DragOnlyData``), so a commit cannot keep them.
extension DragEngine {
  /// Sets (or, with nil, hides) `key` of a target's data for the rest of the drag.
  /// Undone with the rest of the call if the handler fails.
  public func setForDrag(_ key: String, to value: JSONValue?, on target: TargetID) throws(StageError) {
    guard let state = drag else { throw .noDrag }
    guard !state.isReadOnly else { throw .readOnly }
    guard state.onlyWritableTarget == nil else { throw .dragOnlyAfterDrop }
    guard let position = currentBoard.position(of: target) else { throw .board(.unknownTarget(target)) }
    dragOnly.set(key, to: value, on: position)
    version.advance()
  }

  /// A target's data as handlers read it: its staged data, then the drag's own keys.
  public func data(of target: TargetID) -> [String: JSONValue]? {
    guard let position = currentBoard.position(of: target) else { return nil }
    return dragOnly.data(currentBoard.targets[position].data, at: position)
  }

  /// At most how many keys a target's data has as handlers read it (its own and the
  /// drag's, a key in both counted twice), without merging them.
  public func dataKeyCount(of target: TargetID) -> Int? {
    guard let position = currentBoard.position(of: target) else { return nil }
    return currentBoard.targets[position].data.count + dragOnly.keyCount(at: position)
  }

  /// One key of a target's data as handlers read it: the drag's own value, else the
  /// target's.
  public func dataValue(_ key: String, of target: TargetID) -> JSONValue? {
    guard let position = currentBoard.position(of: target) else { return nil }
    if let forDrag = dragOnly.value(key, at: position) { return forDrag }
    return currentBoard.targets[position].data[key]
  }

  /// Bytes of data rules hold on the board's targets beyond what it was made with: what
  /// they stored, and the current drag's own keys.
  public var storedDataBytes: Int { currentBoard.storedDataBytes + dragOnly.bytes }

  /// What ``storedDataBytes`` counts on the targets of the types `counted` picks: a rule
  /// file's share of the board's data cap, for the types it serves. Walks the types
  /// whose data changed and the targets the drag set keys on, not the board.
  public func storedTargetDataBytes(ofTypes counted: (String) -> Bool) -> Int {
    let board = currentBoard
    var total = 0
    for type in board.typesWithStoredData where counted(type) { total += board.storedTargetDataBytes(ofType: type) }
    for (position, bytes) in dragOnly.bytesByPosition where counted(board.targets[position].type) { total += bytes }
    return total
  }

  /// What the drag set `key` of a target to: nil when it set nothing there, `.some(nil)`
  /// when it hid the key.
  public func dragOnlyValue(_ key: String, of target: TargetID) -> JSONValue?? {
    guard let position = currentBoard.position(of: target) else { return nil }
    return dragOnly.value(key, at: position)
  }

  /// Forgets the drag's own keys: the drag is over.
  func endDragOnlyData() {
    guard dragOnly.changeCount > 0 else { return }
    dragOnly = DragOnlyData()
    version.advance()
  }
}
