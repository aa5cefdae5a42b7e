/// What a rule binding may read of a drag and change through it: the engine, as rules see
/// it. The engine gives itself as this view to every handler call (``RuleCalling``), so a
/// binding keeps no pointer back to the engine and can reach nothing else of it.
public protocol RuleView: AnyObject {
  /// The board as the drag sees it: committed plus staged changes.
  var currentBoard: Board { get }
  /// The committed board (during a drag, without its staged changes).
  var board: Board { get }
  var types: TypeRegistry { get }
  /// Moves on every change to ``currentBoard`` and ``dragFacts``: what a binding kept of
  /// an older version is read again.
  var version: ReadVersion { get }
  /// How many times the board was replaced as a whole: positions kept by a binding are void.
  var boardsReplaced: Int { get }
  var dragFacts: DragFacts? { get }
  var draggedItems: [ItemID] { get }
  func isDragged(_ item: ItemID) -> Bool

  /// A target's data as handlers read it: staged data, then the drag's own keys.
  func data(of target: TargetID) -> [String: JSONValue]?
  func dataKeyCount(of target: TargetID) -> Int?
  func dataValue(_ key: String, of target: TargetID) -> JSONValue?
  /// One key of a target's staged data without the drag's own keys.
  func boardDataValue(_ key: String, of target: TargetID) -> JSONValue?
  /// One of the drag's own keys: nil when the drag set none, `.some(nil)` when it hid it.
  func dragOnlyValue(_ key: String, of target: TargetID) -> JSONValue??
  /// Bytes of data stored on the board and for the drag.
  var storedDataBytes: Int { get }
  func storedTargetDataBytes(ofTypes counted: (String) -> Bool) -> Int

  /// Applies a rule's change to the board, recording how to undo it; returns the
  /// targets it touched.
  func stage(_ change: BoardChange) throws(StageError) -> [TargetID]
  /// Sets a key of a target's data for the rest of the drag; false once the drag ended
  /// (a call then changes nothing).
  @discardableResult
  func setForDrag(_ key: String, to value: JSONValue?, on target: TargetID) throws(StageError) -> Bool
  func freshCopyID(of id: ItemID) -> ItemID
  func declareType(_ type: TypeIdentifier, conformsTo parents: [TypeIdentifier]) throws(DragError)
}

extension DragEngine: RuleView {}
