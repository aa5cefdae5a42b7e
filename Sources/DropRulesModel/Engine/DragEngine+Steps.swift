import Foundation

/// The drag lifecycle: pointer steps, enter and exit, updates, negotiation, drop, cancel.
extension DragEngine {
  /// Performs one step of the drag: the one place every kind of step is told apart.
  /// ``lastStep`` then shows it as the trace does.
  @discardableResult
  public func perform(_ step: DragStep) throws(DragError) -> DragStepResult {
    switch step {
    case .at(let point): .proposal(try movePointer(to: point))
    case .over(let target, let index): .proposal(try moveOver(target, index: index))
    case .modifiers(let modifiers): .proposal(try setModifiers(modifiers))
    case .wait(let milliseconds): .proposal(try wait(milliseconds: milliseconds))
    case .frames(let frames): .proposal(try setFrames(frames) ?? .cancel)
    case .outside(let accepts, let operation): .proposal(try moveOutside(accepting: accepts, operation: operation))
    case .drop: .outcome(try drop())
    case .cancel: .outcome(try cancel())
    }
  }

  /// Moves the pointer to a global location and returns the negotiated proposal.
  @discardableResult
  public func movePointer(to point: Point) throws(DragError) -> Proposal {
    try pointerStep(.at(point), to: point, within: nil, index: nil)
  }

  /// Moves the pointer to the centre of `target` (its children excluded), optionally
  /// naming the insertion index the rules see.
  @discardableResult
  public func moveOver(_ target: TargetID, index: Int? = nil) throws(DragError) -> Proposal {
    guard drag != nil else { throw .noDrag }
    guard let position = currentBoard.position(of: target) else { throw .unknownTarget(target) }
    let center = currentBoard.targets[position].frame.center
    return try pointerStep(.over(target, index: index), to: center, within: position, index: index)
  }

  /// Changes the pressed modifiers: the current target gets dropUpdated only.
  @discardableResult
  public func setModifiers(_ modifiers: Set<Modifier>) throws(DragError) -> Proposal {
    guard drag != nil else { throw .noDrag }
    beginStep(.modifiers(modifiers))
    drag?.request.modifiers = modifiers
    version.advance()
    return updateProposal()
  }

  /// Lets time pass without moving (a dwell): the drag's clock advances by
  /// `milliseconds` (0 to an hour; more is clamped), and the current target gets
  /// dropUpdated, which reads `info.hoverTime`.
  @discardableResult
  public func wait(milliseconds: Int) throws(DragError) -> Proposal {
    guard drag != nil else { throw .noDrag }
    let milliseconds = min(max(milliseconds, 0), DragStep.longestWait)
    beginStep(.wait(milliseconds: milliseconds))
    hoverClock.pass(milliseconds)
    return updateProposal()
  }

  /// Drops: with a move or copy proposal `performDrop` runs and its result commits or
  /// rolls back the staged changes; otherwise the drag is cancelled. Over another app, a
  /// move or copy proposal is performed there: nothing on the board performs it, and what
  /// the drag staged on the board is rolled back.
  @discardableResult
  public func drop() throws(DragError) -> DropOutcome {
    guard let state = drag else { throw .noDrag }
    beginStep(.drop)
    if let outside = state.outside {
      guard let operation = outside.proposal.operation else {
        return finish(.cancelled, reason: .proposal(outside.proposal, target: nil))
      }
      // The app takes only the items it accepts; a source that moved items out must
      // remove those and no others.
      let taken = state.itemIDs.filter { currentBoard.item($0)?.conforms(toAnyOf: outside.accepts, in: types) ?? false }
      drag?.takenOutside = taken
      version.advance()
      return finish(.performed, operation: operation)
    }
    guard let current = state.current else { return finish(.cancelled, reason: .noTarget) }
    let target = currentBoard.targets[current].id
    guard let operation = state.proposal.operation else {
      if let type = currentLacksPerformDrop {
        return finish(.cancelled, reason: .noPerformDrop(target: target, targetType: type))
      }
      return finish(.cancelled, reason: .proposal(state.proposal, target: target))
    }
    drag?.protectsSources = operation == .copy
    drag?.containmentRefusal = nil
    let performed = invoke(.performDrop, on: current, operation: operation, index: dropIndex(for: current))
    drag?.protectsSources = false
    switch performed {
    case .returned(.boolean(true)):
      if let refusal = drag?.containmentRefusal {
        return finish(
          .failed,
          reason: .containedItself(
            target: target, item: refusal.item, opened: refusal.opened, destination: refusal.destination))
      }
      // A preview before the drop (dropEntered, dropUpdated) may have moved an item out
      // of its source; a copy commits nothing of the kind.
      if operation == .copy, let taken = itemsTakenFromTheirSources().first {
        return finish(
          .failed, reason: .copyTookFromSource(target: target, item: taken.item, source: taken.source))
      }
    case .notImplemented:
      return finish(.failed, reason: .noPerformDrop(target: target, targetType: currentBoard.targets[current].type))
    case .returned(let value): return finish(.failed, reason: .performDropReturned(target: target, value: value))
    case .failed: return finish(.failed, reason: .performDropRaised(target: target))
    }
    let undo = undoLog.records
    undoLog = UndoLog()
    currentBoard.pruneDetached(among: undo)
    if !undo.isEmpty { commits += 1 }
    return finish(.performed, operation: operation, destination: current)
  }

  /// Cancels the drag: nothing is performed and every staged change is rolled back.
  @discardableResult
  public func cancel() throws(DragError) -> DropOutcome {
    guard drag != nil else { throw .noDrag }
    beginStep(.cancel)
    return finish(.cancelled)
  }

  // MARK: Steps

  /// A step that moves the pointer (`at`, `over`), or that hit-tests it again where it
  /// is (`frames`, with `point` nil, once the frames moved).
  func pointerStep(_ action: DragStep, to destination: Point?, within: Int?, index: Int?) throws(DragError)
    -> Proposal
  {
    guard drag != nil else { throw .noDrag }
    beginStep(action)
    // A frames step off the board, or before the pointer has been anywhere, only asks again.
    guard destination != nil || !isOutside, let point = destination ?? drag?.pointer else { return updateProposal() }
    // Within a target that no other frame cuts into, the targets under the pointer are
    // the ones the last full search found: skip the search.
    var stillInside = false
    if within == nil, drag?.lastStepSearchedEverything == true, let current = drag?.current {
      stillInside = currentBoard.targets[current].frame.contains(point) && hitTester.isStable(current)
    }
    returnToBoard()
    drag?.pointer = point
    if destination != nil { drag?.stepIndex = index }
    drag?.lastStepSearchedEverything = within == nil
    if !stillInside { enterTarget(under: point, within: within) }
    return updateProposal(searched: !stillInside)
  }

  private func enterTarget(under point: Point, within: Int?) {
    let underPointer = hitTester.targets(at: point, within: within)
    let chain = hitTester.chain(among: underPointer) { takesPart($0) && isHitTestable($0) }
    if drag?.rejected.isEmpty == false { drag?.rejected = drag?.rejected.filter { chain.contains($0.key) } ?? [:] }
    defer { recordSkips(among: underPointer, chain: chain, entered: drag?.current) }
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
  }

  /// Whether the target at `position` takes part in this drag: it has a rule that takes
  /// drops, and the rule accepts one of the dragged items. Decided once per rule and drag.
  func takesPart(_ position: Int) -> Bool {
    guard let rule = ruleOfTarget[position], let state = drag else { return false }
    if let known = state.participation[rule] { return known }
    let description = ruleDescriptions[rule]
    let result =
      (description?.takesDrops ?? false)
      && description?.accepts.map { accepted in
        state.itemIDs.contains { currentBoard.item($0)?.conforms(toAnyOf: accepted, in: types) ?? false }
      } ?? true
    drag?.participation[rule] = result
    return result
  }

  /// The first target of `candidates` whose validateDrop accepts this entry; refusals
  /// are remembered while the pointer stays over the target.
  private func firstAccepting(_ candidates: ArraySlice<Int>) -> Int? {
    for candidate in candidates where drag?.rejected[candidate] == nil {
      let accepted: Bool
      var raised = false
      switch invoke(.validateDrop, on: candidate) {
      case .notImplemented: accepted = true
      case .returned(.nothing): accepted = true
      case .returned(let value): accepted = value.isTruthy
      case .failed:
        accepted = false
        raised = true
      }
      if accepted { return candidate }
      drag?.rejected[candidate] = (drag?.stepNumber ?? 0, raised)
    }
    return nil
  }

  private func enter(_ target: Int) {
    drag?.current = target
    hoverClock.enterTarget()
    drag?.entryProposal = nil
    drag?.proposedIndex = nil
    // A rule without performDrop could honour no drop: its proposals are not shown.
    let performs = ruleOfTarget[target].flatMap { ruleDescriptions[$0]?.handlers.contains(.performDrop) } ?? false
    currentLacksPerformDrop = performs ? nil : currentBoard.targets[target].type
    invoke(.dropEntered, on: target)
  }

  func exit(_ target: Int, outcome: DropOutcome? = nil) {
    drag?.current = nil
    currentLacksPerformDrop = nil
    invoke(.dropExited, on: target, outcome: outcome)
  }

  /// Asks the current target for its proposal and negotiates it with the allowed
  /// operations.
  ///
  /// - Parameter searched: whether the step searched the board (see ``TraceRecorder``).
  /// - Returns: the negotiated proposal, recorded in the trace.
  private func updateProposal(searched: Bool = false) -> Proposal {
    if isOutside, let outside = drag?.outside {
      return record(outside.proposal, downgrade: outside.downgrade)
    }
    guard let target = drag?.current else { return record(.cancel, downgrade: nil, searched: searched) }
    var proposal: Proposal
    switch invoke(.dropUpdated, on: target) {
    case .failed:
      proposal = .forbidden
    case .notImplemented, .returned(.nothing):
      proposal = drag?.entryProposal ?? .copy
    case .returned(.proposal(let parsed, let index)):
      proposal = parsed
      drag?.entryProposal = parsed
      drag?.proposedIndex = index
    case .returned(.springLoading(let parsed, let index)):
      proposal = parsed
      drag?.entryProposal = parsed
      drag?.proposedIndex = index
      springLoad(from: target)
    case .returned(let other):
      proposal = .forbidden
      var diagnostic = Diagnostic(
        message:
          "dropUpdated returned \(other.description); expected \"move\", \"copy\", \"forbidden\", \"cancel\", "
          + "{ operation = ..., index = n } or nil",
        handler: .dropUpdated, target: currentBoard.targets[target].id)
      if let rule = ruleOfTarget[target], let definition = ruleDescriptions[rule]?.definitions[.dropUpdated] {
        diagnostic.file = definition.file
        diagnostic.line = definition.line
      }
      report(diagnostic)
    }
    // A proposal no drop could honour is not shown: the drop would fail.
    if let operation = proposal.operation, let type = currentLacksPerformDrop {
      let downgrade = Downgrade(
        from: operation, to: .forbidden, allowed: drag?.request.allowedOperations ?? [], noPerformDrop: type)
      return record(.forbidden, downgrade: downgrade, searched: searched)
    }
    // Most proposals need no negotiation: check before copying the allowed set.
    if let operation = proposal.operation, allowedBits & operation.bit == 0 {
      let (negotiated, downgrade) = Negotiation.negotiate(
        proposal, allowed: drag?.request.allowedOperations ?? [], limits: drag?.limits ?? [])
      return record(negotiated, downgrade: downgrade, searched: searched)
    }
    return record(proposal, downgrade: nil, searched: searched)
  }

  func record(_ proposal: Proposal, downgrade: Downgrade?, searched: Bool = false) -> Proposal {
    drag?.proposal = proposal
    let current = drag?.current
    let index = proposal.operation != nil ? current.flatMap(dropIndex(for:)) : nil
    recorder.record(
      .proposal(
        proposal, index: index, downgrade: downgrade, target: current.map { currentBoard.targets[$0].id },
        pointer: isOutside ? nil : drag?.pointer, searched: searched))
    if proposal.operation != nil, let current, let (place, edge) = itemUnderPointer(in: current) {
      recorder.record(.over(currentBoard.targets[current].items[place - 1], edge))
    }
    if announcements.anyRuleAnnounces { announceProposal(proposal, index: index) }
    return proposal
  }

  /// Ends the drag: rolls back what was not committed, gives the entered target its last
  /// dropExited on the settled, read-only board, then tells the sources (dragEnded).
  private func finish(
    _ outcome: DropOutcome, reason: OutcomeReason? = nil, operation: DragOperation? = nil, destination: Int? = nil
  ) -> DropOutcome {
    if !undoLog.isEmpty {
      currentBoard.undo(undoLog.records)
      undoLog = UndoLog()
    }
    // The settled board the last dropExited reads has no drag-only key.
    endDragOnlyData()
    currentLacksPerformDrop = nil
    drag?.isReadOnly = true
    drag?.hasEnded = true
    let endedOver = drag?.current
    if let current = endedOver { exit(current, outcome: outcome) }
    if announcements.anyRuleAnnounces { announceOutcome(outcome, over: destination ?? endedOver) }
    recorder.record(.outcome(outcome, reason))
    endDragAtSources(outcome: outcome, operation: operation, destination: destination)
    rules.dragDidEnd()
    drag = nil
    version.advance()
    isOutside = false
    springLoading.closeAll()
    draggedOpeners = []
    return outcome
  }
}
