import Foundation

/// Calling handlers: one call of a rule's handler with its context, recorded in the
/// trace and atomic (what a failing call staged is rolled back), and the positions the
/// calls see.
extension DragEngine {
  /// Calls `handler` of the rule for the target at `position` and records the call.
  /// `itemIndex`, where `item` sits in the target's list, saves searching for it.
  @discardableResult
  func invoke(
    _ handler: Handler, on position: Int, operation: DragOperation? = nil, outcome: DropOutcome? = nil,
    index: Int? = nil, item: ItemID? = nil, itemIndex: Int? = nil, destination: Int? = nil,
    announcing: AnnouncementEvent? = nil
  ) -> HandlerResult {
    guard let rule = ruleOfTarget[position] else { return .notImplemented }
    let frame = currentBoard.targets[position].frame
    let pointer = drag?.pointer ?? frame.center
    var context = HandlerContext(
      pointer: pointer, location: Point(x: pointer.x - frame.x, y: pointer.y - frame.y),
      index: index ?? pointerIndex(in: position), operation: operation, outcome: outcome)
    if !handler.isSourceHandler, let (over, edge) = itemUnderPointer(in: position) {
      context.over = over
      context.edge = edge
    }
    context.item = itemIndex ?? item.flatMap { currentBoard.targets[position].items.firstIndex(of: $0) }.map { $0 + 1 }
    context.outside = isOutside
    context.destination = destination
    context.announcing = announcing
    // These run on the current target only (validateDrop on the one about to be entered):
    // told by the handler, not by reading the drag state, which every pointer step would
    // pay for.
    switch handler {
    case .dropEntered, .dropUpdated, .performDrop:
      context.hoverTime = hoverClock.hoverTime
      fallthrough
    case .validateDrop:
      if !draggedOpeners.isEmpty { context.wouldContainItself = wouldContainItself(at: position) }
    default: break
    }
    let id = currentBoard.targets[position].id
    // Each call is atomic: what a call that fails staged is rolled back here.
    let staged = undoLog.count
    let stagedForDrag = dragOnly.changeCount
    let started = observers.timings == nil ? 0 : DispatchTime.now().uptimeNanoseconds
    // Whatever the rule's file cut, the host keeps no more of its texts than TextCap allows.
    let result = rules.call(handler, of: rule, target: id, position: position, context: context, in: self).cappedForHost
    if case .notImplemented = result { return result }
    if observers.timings != nil {
      observers.timings?.append(
        HandlerTiming(handler: handler, nanoseconds: DispatchTime.now().uptimeNanoseconds - started))
    }
    for line in rules.takePrintedLines() {
      recorder.record(.printed(line))
      observers.printed?(line)
    }
    switch result {
    case .notImplemented: break
    case .returned(let value):
      recorder.record(.call(handler, id, item: item, value))
      // What the call staged stays; of its undo records, only those a rollback can need.
      if undoLog.count > staged { undoLog.endCall(from: staged) }
      if dragOnly.changeCount > stagedForDrag { dragOnly.endCall(from: stagedForDrag) }
    case .failed(var diagnostic):
      recorder.record(.call(handler, id, item: item, nil))
      // A failed performDrop rolls back the whole drag; a failed preview only its own call.
      if rollBackCall(staged: staged, stagedForDrag: stagedForDrag), handler != .performDrop {
        diagnostic.message += " (what this call changed was rolled back)"
      }
      report(diagnostic)
    }
    return result
  }

  /// Rolls back what the current call staged beyond the first `staged` undo records and
  /// `stagedForDrag` drag-only changes; returns whether it had staged anything.
  private func rollBackCall(staged: Int, stagedForDrag: Int) -> Bool {
    var rolledBack = false
    if dragOnly.changeCount > stagedForDrag {
      dragOnly.rollBack(to: stagedForDrag)
      version.advance()
      rolledBack = true
    }
    guard undoLog.count > staged else { return rolledBack }
    currentBoard.undo(undoLog.takeCall(from: staged))
    return true
  }

  /// The `info.index` handlers see: the one the step named, else the gap the target's
  /// item extent puts under the pointer.
  func pointerIndex(in position: Int) -> Int? {
    // A step's own index is clamped to the list as a proposal's is (`dropIndex(for:)`).
    if let index = drag?.stepIndex { return currentBoard.clampedGap(index, at: position) }
    guard let itemExtent = currentBoard.targets[position].itemExtent else { return nil }
    let frame = currentBoard.targets[position].frame
    return DropTarget.insertionIndex(
      at: drag?.pointer ?? frame.center, in: frame, axis: currentBoard.targets[position].axis,
      itemExtent: itemExtent, itemCount: currentBoard.targets[position].items.count)
  }

  /// The 1-based place of the item under the pointer in a target with an item extent,
  /// and which third of it.
  func itemUnderPointer(in position: Int) -> (place: Int, edge: ItemEdge)? {
    guard let itemExtent = currentBoard.targets[position].itemExtent, let pointer = drag?.pointer else { return nil }
    let target = currentBoard.targets[position]
    guard
      let hit = DropTarget.itemUnderPointer(
        at: pointer, in: target.frame, axis: target.axis, itemExtent: itemExtent, itemCount: target.items.count)
    else { return nil }
    return (hit.position, hit.edge)
  }

  /// The index performDrop sees: the one dropUpdated proposed, clamped to the target's
  /// list (`1 ... #items + 1`, as `target:insert`'s gap is), else the pointer's.
  func dropIndex(for position: Int) -> Int? {
    guard let proposed = drag?.proposedIndex else { return pointerIndex(in: position) }
    return currentBoard.clampedGap(proposed, at: position)
  }
}
