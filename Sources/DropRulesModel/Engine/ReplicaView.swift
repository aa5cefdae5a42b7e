/// What a rule reads of a drag, as a value: everything a ``RuleView`` answers, so that a
/// rule file running in a worker process reads what it would read in the host's.
package struct ViewSnapshot: Codable {
  package var currentBoard: Board
  /// The committed board, when the drag staged changes (nil: the same as ``currentBoard``).
  package var committedBoard: Board?
  /// The type graph, when it changed since the copy last saw it (nil: unchanged).
  package var types: TypeRegistry?
  package var boardsReplaced: Int
  package var dragFacts: DragFacts?
  package var draggedItems: [ItemID]
  var dragOnly: DragOnlyData

  /// What `engine` shows its rules now; its types only when a copy that saw
  /// `declarations` of them has not seen them all (nil: it saw none).
  package init(of engine: DragEngine, typesAfter declarations: Int? = nil) {
    currentBoard = engine.currentBoard
    committedBoard = engine.undoLog.isEmpty ? nil : engine.board
    types = declarations == engine.types.declarations ? nil : engine.types
    boardsReplaced = engine.boardsReplaced
    dragFacts = engine.dragFacts
    draggedItems = engine.draggedItems
    dragOnly = engine.dragOnly
  }
}

/// What a ``ReplicaView`` asks of the host's engine: the changes its rules make.
package enum ReplicaRequest: Codable, Sendable {
  case stage(BoardChange)
  case setForDrag(String, to: JSONValue?, on: TargetID)
  case freshCopyID(ItemID)
  case declareType(TypeIdentifier, conformsTo: [TypeIdentifier])
}

/// The host's engine's answer to a ``ReplicaRequest``.
package enum ReplicaReply: Codable, Sendable {
  case staged([TargetID])
  case refused(StageError)
  case copyID(ItemID)
  case declared
  case notDeclared(DragError)
}

/// A copy of the host's engine as rules see it (``RuleView``), in a rule file's worker
/// process: reads are answered from the last ``ViewSnapshot``, and changes are asked of
/// the host (``ask``), then made here the same way once it agreed, so that the copy stays
/// what the host's engine shows without being sent again.
package final class ReplicaView: RuleView {
  private var snapshot: ViewSnapshot
  package private(set) var types: TypeRegistry
  package let version = ReadVersion()
  /// Sends a request to the host and waits for its answer.
  private let ask: (ReplicaRequest) -> ReplicaReply

  /// A copy of what `snapshot` shows (with its types: the first a copy sees).
  package init(_ snapshot: ViewSnapshot, ask: @escaping (ReplicaRequest) -> ReplicaReply) {
    self.snapshot = snapshot
    types = snapshot.types ?? TypeRegistry()
    self.ask = ask
  }

  /// Takes what the host's engine shows now.
  package func update(_ snapshot: ViewSnapshot) {
    self.snapshot = snapshot
    if let changed = snapshot.types { types = changed }
    version.advance()
  }

  package var currentBoard: Board { snapshot.currentBoard }
  package var board: Board { snapshot.committedBoard ?? snapshot.currentBoard }
  package var boardsReplaced: Int { snapshot.boardsReplaced }
  package var dragFacts: DragFacts? { snapshot.dragFacts }
  package var draggedItems: [ItemID] { snapshot.draggedItems }
  package func isDragged(_ item: ItemID) -> Bool { snapshot.draggedItems.contains(item) }

  package func data(of target: TargetID) -> [String: JSONValue]? {
    snapshot.dragOnly.data(of: target, on: snapshot.currentBoard)
  }
  package func dataKeyCount(of target: TargetID) -> Int? {
    snapshot.dragOnly.dataKeyCount(of: target, on: snapshot.currentBoard)
  }
  package func dataValue(_ key: String, of target: TargetID) -> JSONValue? {
    snapshot.dragOnly.dataValue(key, of: target, on: snapshot.currentBoard)
  }
  package func boardDataValue(_ key: String, of target: TargetID) -> JSONValue? {
    snapshot.currentBoard.dataValue(key, of: target)
  }
  package func dragOnlyValue(_ key: String, of target: TargetID) -> JSONValue?? {
    snapshot.dragOnly.dragOnlyValue(key, of: target, on: snapshot.currentBoard)
  }
  package var storedDataBytes: Int { snapshot.dragOnly.storedDataBytes(on: snapshot.currentBoard) }
  package func storedTargetDataBytes(ofTypes counted: (String) -> Bool) -> Int {
    snapshot.dragOnly.storedTargetDataBytes(on: snapshot.currentBoard, ofTypes: counted)
  }

  package func stage(_ change: BoardChange) throws(StageError) -> [TargetID] {
    switch ask(.stage(change)) {
    case .staged(let touched):
      // The host's engine made the same change to the same board: it cannot fail here.
      if snapshot.committedBoard == nil { snapshot.committedBoard = snapshot.currentBoard }
      if let undo = try? snapshot.currentBoard.apply(change) { snapshot.dragOnly.forgetKeys(changedBy: undo) }
      version.advance()
      return touched
    case .refused(let error): throw error
    default: throw .noDrag
    }
  }

  @discardableResult
  package func setForDrag(_ key: String, to value: JSONValue?, on target: TargetID) throws(StageError) -> Bool {
    switch ask(.setForDrag(key, to: value, on: target)) {
    case .staged(let touched):
      // Nothing touched: the drag had ended, and the host's engine set nothing either.
      guard !touched.isEmpty, let position = snapshot.currentBoard.position(of: target) else { return false }
      snapshot.dragOnly.set(key, to: value, on: position)
      version.advance()
      return true
    case .refused(let error): throw error
    default: throw .noDrag
    }
  }

  package func freshCopyID(of id: ItemID) -> ItemID {
    if case .copyID(let copy) = ask(.freshCopyID(id)) { return copy }
    return id + "-copy"
  }

  package func declareType(_ type: TypeIdentifier, conformsTo parents: [TypeIdentifier]) throws(DragError) {
    switch ask(.declareType(type, conformsTo: parents)) {
    case .declared:
      types.declare(type, conformsTo: parents)
      version.advance()
    case .notDeclared(let error): throw error
    default: throw .dragInProgress
    }
  }
}

@available(*, unavailable) extension ReplicaView: Sendable {}

extension DragEngine {
  /// Answers a replica's request as the engine answers its own rules (``RuleView``).
  package func answer(_ request: ReplicaRequest) -> ReplicaReply {
    do throws(StageError) {
      switch request {
      case .stage(let change): return .staged(try stage(change))
      case .setForDrag(let key, let value, let target):
        return .staged(try setForDrag(key, to: value, on: target) ? [target] : [])
      case .freshCopyID(let id): return .copyID(freshCopyID(of: id))
      case .declareType(let type, let parents):
        do throws(DragError) {
          try declareType(type, conformsTo: parents)
          return .declared
        } catch {
          return .notDeclared(error)
        }
      }
    } catch {
      return .refused(error)
    }
  }
}
