/// How a drag began: the items `canDrag` refused, and whether any item was left to drag.
public struct DragStart: Hashable, Sendable {
  /// Board items whose source refused to let them go, in drag order.
  public var refused: [ItemID]
  /// True when every item was refused: the drag did not begin, its outcome is `refused`.
  public var isRefused: Bool
}

/// The drag source's side: `canDrag` at the start, `dragOperations` at the start and
/// when the pointer leaves the board, drops into other apps, and `dragEnded`.
extension DragEngine {
  /// Starts a drag. Board items are dragged from where they sit, if their source's
  /// `canDrag` lets them go; external items are known to the rules but on the board only
  /// once a rule inserts them.
  @discardableResult
  public func beginDrag(_ request: DragRequest) throws(DragError) -> DragStart {
    guard drag == nil else { throw .dragInProgress }
    guard !request.items.isEmpty else { throw .noItems }
    let undo = try placeExternalItems(of: request)
    let allItems = request.items.map(\.id)
    let ownLimit = [OperationLimit(source: nil, operations: request.allowedOperations)]
    drag = DragState(
      request: request, itemIDs: allItems, itemSet: Set(allItems), requestedOperations: request.allowedOperations,
      boardOperations: request.allowedOperations, boardLimits: ownLimit, limits: ownLimit)
    // What rules read of the drag (``dragFacts``) begins to exist, for canDrag.
    version.advance()
    undoLog = UndoLog(undo)
    isOutside = false
    allowedBits = DragOperation.bits(request.allowedOperations)
    recorder.reset()
    diagnosticsThisDrag = 0
    // Nothing of the last drag's own reaches this one.
    dragOnly = DragOnlyData()
    currentLacksPerformDrop = nil
    springLoading.closeAll()
    draggedOpeners = []
    hoverClock = HoverClock()
    var names: [ItemID: String] = [:]
    for id in allItems { if let name = currentBoard.item(id)?.name { names[id] = name } }
    announcements.begin(naming: names)
    recorder.record(.step(.begin(allItems)))

    // A rule whose canDrag raised refuses the rest of its items without being asked
    // again: a broken canDrag costs one budget per drag, not one per dragged item.
    var failedRules: Set<RuleID> = []
    // Found for all items at once: item by item, each would search its list again.
    let indexes = currentBoard.indexes(of: allItems)
    let refused = request.items.compactMap { item -> ItemID? in
      guard case .board(let id) = item, !canDrag(id, index: indexes[id], unlessFailed: &failedRules) else {
        return nil
      }
      recorder.record(.refused(id))
      return id
    }
    let refusedSet = Set(refused)
    drag?.request.items.removeAll { refusedSet.contains($0.id) }
    drag?.itemIDs.removeAll { refusedSet.contains($0) }
    guard let itemIDs = drag?.itemIDs, !itemIDs.isEmpty else {
      currentBoard.undo(undo)
      undoLog = UndoLog()
      recorder.record(.outcome(.refused, nil))
      drag = nil
      version.advance()
      return DragStart(refused: refused, isRefused: true)
    }
    var sources: [TargetID] = []
    var sourcePositions: Set<Int> = []
    for id in itemIDs {
      if let position = currentBoard.containerPosition(of: id), sourcePositions.insert(position).inserted {
        sources.append(currentBoard.targets[position].id)
      }
    }
    drag?.sources = sources
    drag?.itemSources = itemIDs.compactMap { id in
      currentBoard.containerPosition(of: id).map { (id, currentBoard.targets[$0].id) }
    }
    draggedOpeners = itemIDs.compactMap { currentBoard.item($0)?.opens.flatMap(currentBoard.position(of:)) }
    // What rules read of the drag (`info`) now exists, with the items canDrag let go.
    version.advance()
    if let (allowed, limits) = askSourcesForOperations() {
      drag?.boardOperations = allowed
      drag?.boardLimits = limits
      drag?.limits = limits
      allow(allowed)
    }
    askForPreview()
    announce(.lifted, on: drag?.sources.first.flatMap(currentBoard.position(of:)))
    return DragStart(refused: refused, isRefused: false)
  }

  /// Moves the pointer off the board into another app that takes items conforming to
  /// `accepts` and asks for `operation`. The current target is exited; the proposal is
  /// that operation, negotiated with what the drag and its sources allow outside, or
  /// `forbidden` when the app takes none of the dragged items.
  @discardableResult
  public func moveOutside(
    accepting accepts: [TypeIdentifier] = ["public.item"], operation: DragOperation = .copy
  ) throws(DragError) -> Proposal {
    guard drag != nil else { throw .noDrag }
    beginStep(.outside(accepts: accepts, operation: operation))
    if let current = drag?.current { exit(current) }
    drag?.rejected = [:]
    drag?.stepIndex = nil
    drag?.lastStepSearchedEverything = false
    let leavingBoard = !isOutside
    drag?.outside = OutsideApp(accepts: accepts, operation: operation)
    isOutside = true
    if leavingBoard {
      let requested = drag?.requestedOperations ?? []
      let (allowed, limits) =
        askSourcesForOperations() ?? (requested, [OperationLimit(source: nil, operations: requested)])
      drag?.limits = limits
      allow(allowed)
    }
    let takesAnItem =
      drag?.itemIDs.contains { currentBoard.item($0)?.conforms(toAnyOf: accepts, in: types) ?? false } ?? false
    let negotiated =
      takesAnItem
      ? Negotiation.negotiate(
        Proposal(operation), allowed: drag?.request.allowedOperations ?? [], limits: drag?.limits ?? [])
      : (proposal: Proposal.forbidden, downgrade: nil)
    drag?.outside?.proposal = negotiated.proposal
    drag?.outside?.downgrade = negotiated.downgrade
    return record(negotiated.proposal, downgrade: negotiated.downgrade)
  }

  /// Brings the pointer back from another app: the board's allowed operations again.
  func returnToBoard() {
    guard isOutside else { return }
    drag?.outside = nil
    isOutside = false
    drag?.limits = drag?.boardLimits ?? []
    allow(drag?.boardOperations ?? [])
  }

  // MARK: Asking the sources

  /// Whether the source of board item `id`, at 1-based `index` in its list, lets it be
  /// dragged (`canDrag`, default true; an error refuses it, which loses nothing).
  private func canDrag(_ id: ItemID, index: Int?, unlessFailed failedRules: inout Set<RuleID>) -> Bool {
    guard let position = currentBoard.containerPosition(of: id) else { return true }
    let rule = ruleOfTarget[position]
    if let rule, failedRules.contains(rule) { return false }
    drag?.isReadOnly = true
    defer { drag?.isReadOnly = false }
    switch invoke(.canDrag, on: position, item: id, itemIndex: index) {
    case .notImplemented, .returned(.nothing): return true
    case .returned(let value): return value.isTruthy
    case .failed:
      if let rule { failedRules.insert(rule) }
      return false
    }
  }

  /// Asks each source's `dragOperations` and intersects the answers with what the drag
  /// itself allows; records each limit and returns them, the drag's own first. Nil when
  /// no source has the handler.
  private func askSourcesForOperations() -> (allowed: Set<DragOperation>, limits: [OperationLimit])? {
    guard let state = drag else { return nil }
    drag?.isReadOnly = true
    defer { drag?.isReadOnly = false }
    var allowed = state.requestedOperations
    var limits: [OperationLimit] = []
    for source in state.sources {
      guard let position = currentBoard.position(of: source) else { continue }
      let operations: Set<DragOperation>
      switch invoke(.dragOperations, on: position) {
      case .notImplemented: continue
      case .returned(.nothing): operations = [.copy, .move]
      case .returned(.operations(let answer)): operations = answer
      // A source whose answer cannot be read allows nothing rather than too much.
      case .returned, .failed: operations = []
      }
      limits.append(OperationLimit(source: source, operations: operations))
      allowed.formIntersection(operations)
    }
    guard !limits.isEmpty else { return nil }
    limits.insert(OperationLimit(source: nil, operations: state.requestedOperations), at: 0)
    for limit in limits { recorder.record(.limit(limit)) }
    return (allowed, limits)
  }

  /// Makes `allowed` the drag's allowed operations.
  private func allow(_ allowed: Set<DragOperation>) {
    drag?.request.allowedOperations = allowed
    allowedBits = DragOperation.bits(allowed)
    recorder.record(.allowed(allowed))
    version.advance()
  }

  // MARK: Ending

  /// Calls each source's `dragEnded`, after every dropExited, each in a transaction of
  /// its own: its changes are committed when it returns and rolled back if it raises.
  func endDragAtSources(outcome: DropOutcome, operation: DragOperation?, destination: Int?) {
    for source in drag?.sources ?? [] {
      guard let position = currentBoard.position(of: source) else { continue }
      drag?.isReadOnly = false
      drag?.onlyWritableTarget = source
      drag?.protectsSources = operation == .copy
      undoLog = UndoLog()
      let result = invoke(
        .dragEnded, on: position, operation: operation, outcome: outcome, destination: destination)
      let undo = undoLog.records
      undoLog = UndoLog()
      drag?.isReadOnly = true
      drag?.onlyWritableTarget = nil
      drag?.protectsSources = false
      if case .failed = result, !undo.isEmpty {
        currentBoard.undo(undo)
      } else {
        currentBoard.pruneDetached(among: undo)
        if !undo.isEmpty { commits += 1 }
      }
    }
  }

  /// Puts a drag's external items on the board, detached; undone if the request is bad.
  private func placeExternalItems(of request: DragRequest) throws(DragError) -> [Board.Undo] {
    var seen: Set<ItemID> = []
    var undo: [Board.Undo] = []
    for item in request.items {
      guard seen.insert(item.id).inserted else {
        currentBoard.undo(undo)
        throw .duplicateItem(item.id)
      }
      switch item {
      case .board(let id):
        guard currentBoard.contains(item: id) else {
          currentBoard.undo(undo)
          throw .itemNotOnBoard(id)
        }
      case .external(let external):
        do { undo += try currentBoard.addDetached(external) } catch {
          currentBoard.undo(undo)
          if case .duplicateItem = error { throw .duplicateItem(external.id) }
          throw .externalOpener(external.id)
        }
      }
    }
    return undo
  }
}

extension Proposal {
  /// The proposal that performs `operation`.
  init(_ operation: DragOperation) {
    switch operation {
    case .copy: self = .copy
    case .move: self = .move
    }
  }
}
