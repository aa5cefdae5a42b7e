/// A drag that cannot start or continue as asked.
public enum DragError: Error, Equatable, CustomStringConvertible {
  case dragInProgress
  case noDrag
  case noItems
  case itemNotOnBoard(ItemID)
  case duplicateItem(ItemID)
  case unknownTarget(TargetID)

  public var description: String {
    switch self {
    case .dragInProgress: "a drag is already in progress; drop or cancel it first"
    case .noDrag: "no drag in progress; begin one first"
    case .noItems: "a drag needs at least one item"
    case .itemNotOnBoard(let id): "dragged item '\(id)' is not on the board"
    case .duplicateItem(let id): "item '\(id)' is dragged twice or clashes with a board item"
    case .unknownTarget(let id): "no target with id '\(id)'"
    }
  }
}

/// The drag lifecycle: hit-testing, enter/exit, updates, negotiation, drop and cancel.
extension RuleHost {
  /// Starts a drag. Board items are dragged from where they sit; external items are
  /// known to the rules but on the board only once a rule inserts them.
  public func beginDrag(_ session: DragSession) throws(DragError) {
    guard drag == nil else { throw .dragInProgress }
    guard !session.items.isEmpty else { throw .noItems }
    var staged = committed
    var seen: Set<ItemID> = []
    var source: TargetID?
    for item in session.items {
      guard seen.insert(item.id).inserted else { throw .duplicateItem(item.id) }
      switch item {
      case .board(let id):
        guard let place = committed.place(of: id) else { throw .itemNotOnBoard(id) }
        source = source ?? place.container
      case .external(let external):
        do { try staged.addDetached(external) } catch { throw .duplicateItem(external.id) }
      }
    }
    let itemIDs = session.items.map(\.id)
    drag = DragState(session: session, itemIDs: itemIDs, source: source, staged: staged)
    boardGeneration += 1
    trace = []
    callAPI(
      api.beginDrag,
      [
        .table(LuaTable(sequence: itemIDs.map(LuaValue.string))),
        .table(LuaTable(sequence: session.modifiers.sorted().map { .string($0.rawValue) })),
        .table(LuaTable(sequence: session.allowedOperations.map(\.rawValue).sorted().map(LuaValue.string))),
        source.map(LuaValue.string) ?? .nil,
      ])
  }

  /// Moves the pointer to a global location and returns the negotiated proposal.
  @discardableResult
  public func movePointer(to point: Point) throws(DragError) -> DropProposal {
    try pointerStep(to: point, within: nil, index: nil, action: "at \(point)")
  }

  /// Moves the pointer to the centre of `target` (its children excluded), optionally
  /// naming the insertion index the rules see.
  @discardableResult
  public func moveOver(_ target: TargetID, index: Int? = nil) throws(DragError) -> DropProposal {
    guard let frame = currentBoard.target(target)?.frame else { throw .unknownTarget(target) }
    let action = "over \(target)" + (index.map { " index \($0)" } ?? "")
    return try pointerStep(to: frame.center, within: target, index: index, action: action)
  }

  /// Changes the pressed modifiers: the current target gets dropUpdated only.
  @discardableResult
  public func setModifiers(_ modifiers: Set<Modifier>) throws(DragError) -> DropProposal {
    guard drag != nil else { throw .noDrag }
    let names = modifiers.sorted().map(\.rawValue)
    beginStep("modifiers " + (names.isEmpty ? "none" : names.joined(separator: ", ")))
    drag?.session.modifiers = modifiers
    callAPI(api.setModifiers, [.table(LuaTable(sequence: names.map(LuaValue.string)))])
    return updateProposal()
  }

  /// Drops: with a move or copy proposal `performDrop` runs and its result commits or
  /// rolls back the staged changes; otherwise the drag is cancelled.
  @discardableResult
  public func drop() throws(DragError) -> DropOutcome {
    guard let state = drag else { throw .noDrag }
    beginStep("drop")
    guard let target = state.current, let operation = state.proposal.operation else {
      return finish(.cancelled)
    }
    let result = invoke(.performDrop, on: target, operation: operation, index: dropIndex(for: target))
    switch result {
    case .returned(.boolean(true)):
      if let staged = drag?.staged { committed = staged }
      committed.pruneDetached()
      return finish(.performed)
    case .returned, .failed, .notImplemented:
      return finish(.failed)
    }
  }

  /// Cancels the drag: nothing is performed and every staged change is rolled back.
  @discardableResult
  public func cancel() throws(DragError) -> DropOutcome {
    guard drag != nil else { throw .noDrag }
    beginStep("cancel")
    return finish(.cancelled)
  }

  // MARK: Steps

  private func pointerStep(to point: Point, within: TargetID?, index: Int?, action: String) throws(DragError)
    -> DropProposal
  {
    guard drag != nil else { throw .noDrag }
    beginStep(action)
    drag?.pointer = point
    drag?.stepIndex = index
    let board = currentBoard
    let chain = hitTester.chain(at: point, within: within) { id in
      board.target(id).map(takesPart) ?? false
    }
    drag?.rejected.formIntersection(chain)
    if let current = drag?.current, let currentPosition = chain.firstIndex(of: current) {
      // Still over the current target: only targets nested inside it can take over.
      if let inner = firstAccepting(chain[..<currentPosition]) {
        exit(current)
        enter(inner)
      }
    } else {
      if let current = drag?.current { exit(current) }
      if let next = firstAccepting(chain[...]) { enter(next) }
    }
    return updateProposal()
  }

  /// The first target of `candidates` whose validateDrop accepts this entry; refusals
  /// are remembered while the pointer stays over the target.
  private func firstAccepting(_ candidates: ArraySlice<TargetID>) -> TargetID? {
    for candidate in candidates where !(drag?.rejected.contains(candidate) ?? true) {
      let accepted: Bool
      switch invoke(.validateDrop, on: candidate) {
      case .notImplemented, .returned(.nil): accepted = true
      case .returned(let value): accepted = value.isTruthy
      case .failed: accepted = false
      }
      if accepted { return candidate }
      drag?.rejected.insert(candidate)
    }
    return nil
  }

  private func enter(_ target: TargetID) {
    drag?.current = target
    drag?.entryProposal = nil
    drag?.proposedIndex = nil
    invoke(.dropEntered, on: target)
  }

  private func exit(_ target: TargetID, outcome: DropOutcome? = nil) {
    drag?.current = nil
    invoke(.dropExited, on: target, outcome: outcome)
  }

  /// Asks the current target for its proposal and negotiates it with the allowed
  /// operations.
  private func updateProposal() -> DropProposal {
    guard let target = drag?.current else { return record(.cancel, downgrade: nil) }
    var proposal: DropProposal
    switch invoke(.dropUpdated, on: target) {
    case .failed:
      proposal = .forbidden
    case .notImplemented, .returned(.nil):
      proposal = drag?.entryProposal ?? .copy
    case .returned(let value):
      if let (parsed, index) = parseProposal(value, target: target) {
        proposal = parsed
        drag?.entryProposal = parsed
        drag?.proposedIndex = index
      } else {
        proposal = .forbidden
      }
    }
    let (negotiated, downgrade) = Negotiation.negotiate(proposal, allowed: drag?.session.allowedOperations ?? [])
    return record(negotiated, downgrade: downgrade)
  }

  private func parseProposal(_ value: LuaValue, target: TargetID) -> (DropProposal, Int?)? {
    if case .string(let name) = value, let proposal = DropProposal(rawValue: name) { return (proposal, nil) }
    if case .table(let table) = value, let name = table["operation"].stringValue,
      let proposal = DropProposal(rawValue: name)
    {
      switch table["index"] {
      case .nil: return (proposal, nil)
      case let index where index.intValue != nil: return (proposal, index.intValue)
      default: break
      }
    }
    let expected = "\"move\", \"copy\", \"forbidden\", \"cancel\", { operation = ..., index = n } or nil"
    report(
      Diagnostic(
        message: "dropUpdated returned \(describe(value)); expected \(expected)", handler: .dropUpdated,
        target: target),
      definedBy: rules.rule(for: currentBoard.target(target)?.type ?? "")?.handlers[.dropUpdated])
    return nil
  }

  private func record(_ proposal: DropProposal, downgrade: String?) -> DropProposal {
    drag?.proposal = proposal
    let dropIndex = proposal.operation != nil ? drag?.current.flatMap(dropIndex(for:)) : nil
    updateLastStep { step in
      step.proposal = proposal
      step.index = dropIndex
      step.downgrade = downgrade
      step.target = drag?.current
    }
    return proposal
  }

  private func finish(_ outcome: DropOutcome) -> DropOutcome {
    // The final dropExited sees the settled board and may not change it.
    drag?.staged = committed
    drag?.isReadOnly = true
    boardGeneration += 1
    if let current = drag?.current { exit(current, outcome: outcome) }
    updateLastStep { step in
      step.outcome = outcome
      step.target = nil
    }
    drag = nil
    boardGeneration += 1
    return outcome
  }

  func beginStep(_ action: String) {
    drag?.stepNumber += 1
    trace.append(TraceStep(number: drag?.stepNumber ?? trace.count + 1, action: action, target: drag?.current))
  }

  func updateLastStep(_ change: (inout TraceStep) -> Void) {
    guard !trace.isEmpty else { return }
    change(&trace[trace.count - 1])
  }

  /// The `info.index` handlers see: the one the step named, else the gap the target's
  /// item extent puts under the pointer.
  func pointerIndex(in target: DropTarget) -> Int? {
    drag?.stepIndex ?? target.insertionIndex(at: drag?.pointer ?? target.frame.center)
  }

  /// The index performDrop sees: the one dropUpdated proposed, else the pointer's.
  func dropIndex(for target: TargetID) -> Int? {
    drag?.proposedIndex ?? currentBoard.target(target).flatMap(pointerIndex(in:))
  }
}
