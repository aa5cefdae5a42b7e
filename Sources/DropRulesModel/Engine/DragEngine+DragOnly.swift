/// Drag-only data (`target:setForDrag`): keys every handler of a drag reads in
/// `target.data` and that end with the drag, performed or not. They are kept beside the
/// board (``DragOnlyData``), so a commit cannot keep them.
extension DragEngine {
  /// Sets (or, with nil, hides) `key` of a target's data for the rest of the drag, and
  /// returns true. Undone with the rest of the call if the handler fails. Once the drag
  /// has ended (its last dropExited, dragEnded), drag-only data is gone with it: a call
  /// changes nothing, raises nothing, and returns false, so code that clears a hover
  /// needs no guard.
  @discardableResult
  public func setForDrag(_ key: String, to value: JSONValue?, on target: TargetID) throws(StageError) -> Bool {
    guard let state = drag else { throw .noDrag }
    guard let position = currentBoard.position(of: target) else { throw .board(.unknownTarget(target)) }
    if state.hasEnded { return false }
    guard !state.isReadOnly else { throw .readOnly }
    dragOnly.set(key, to: value, on: position)
    version.advance()
    return true
  }

  // What handlers read of targets' data (DragOnlyData.swift, shared with a worker's copy).

  /// A target's data as handlers read it: its staged data, then the drag's own keys.
  public func data(of target: TargetID) -> [String: JSONValue]? { dragOnly.data(of: target, on: currentBoard) }

  /// At most how many keys a target's data has as handlers read it (its own and the
  /// drag's, a key in both counted twice), without merging them.
  public func dataKeyCount(of target: TargetID) -> Int? { dragOnly.dataKeyCount(of: target, on: currentBoard) }

  /// One key of a target's data as handlers read it: the drag's own value, else the
  /// target's.
  public func dataValue(_ key: String, of target: TargetID) -> JSONValue? {
    dragOnly.dataValue(key, of: target, on: currentBoard)
  }

  /// Bytes of data rules hold on the board's targets beyond what it was made with: what
  /// they stored, and the current drag's own keys.
  public var storedDataBytes: Int { dragOnly.storedDataBytes(on: currentBoard) }

  /// What ``storedDataBytes`` counts on the targets of the types `counted` picks: a rule
  /// file's share of the board's data cap, for the types it serves.
  public func storedTargetDataBytes(ofTypes counted: (String) -> Bool) -> Int {
    dragOnly.storedTargetDataBytes(on: currentBoard, ofTypes: counted)
  }

  /// What the drag set `key` of a target to: nil when it set nothing there, `.some(nil)`
  /// when it hid the key.
  public func dragOnlyValue(_ key: String, of target: TargetID) -> JSONValue?? {
    dragOnly.dragOnlyValue(key, of: target, on: currentBoard)
  }

  /// Forgets the drag's own keys: the drag is over.
  func endDragOnlyData() {
    guard dragOnly.changeCount > 0 else { return }
    dragOnly = DragOnlyData()
    version.advance()
  }
}
