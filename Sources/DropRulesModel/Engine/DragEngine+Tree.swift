/// Containers that move and open: hit-testing that follows the board's tree as items
/// that stand for targets move it, frames the app moves after a layout change, and
/// spring-loading (a rule opens a closed container the pointer rests on).
extension DragEngine {
  /// Brings the hit-tester up to the board's tree and frames, after any change to the
  /// board (``currentBoard``'s observer calls it, so no step can see a stale tree), and
  /// makes the next pointer step search the board again when they moved. A pointer step
  /// that changes nothing pays nothing for it.
  func syncHitTester() {
    if currentBoard.frameGeneration.value != hitTester.frameGeneration {
      hitTester = HitTester(board: currentBoard)
    } else if currentBoard.treeGeneration.value != hitTester.treeGeneration {
      hitTester.refreshTree(board: currentBoard)
    } else {
      return
    }
    drag?.lastStepSearchedEverything = false
  }

  /// Whether the target at `position` can be under the pointer at all: no closed
  /// container that the drag has not spring-loaded hides it.
  func isHitTestable(_ position: Int) -> Bool {
    !hitTester.hasCollapsed || !hitTester.isHidden(position, expanded: springLoading.opened)
  }

  /// Opens, for the rest of the drag, the closed container a `dropUpdated` answer with
  /// `open = true` names: the target the item under the pointer stands for, else the one
  /// the current target's data names under `opens`. With neither, nothing opens.
  func springLoad(from position: Int) {
    let board = currentBoard
    var opened: Int?
    if let (place, _) = itemUnderPointer(in: position),
      let id = board.item(board.targets[position].items[place - 1])?.opens
    {
      opened = board.position(of: id)
    }
    if opened == nil, case .string(let id) = board.targets[position].data["opens"] {
      opened = board.position(of: id)
    }
    guard let target = opened, springLoading.open(target) else { return }
    recorder.record(.springLoaded(board.targets[target].id))
    // The targets inside it can take over at once, on the next pointer step.
    drag?.lastStepSearchedEverything = false
  }

  /// Whether a drop into the target at `position` would put a target inside itself
  /// (see ``HandlerContext/wouldContainItself``).
  func wouldContainItself(at position: Int) -> Bool {
    let board = currentBoard
    var destinations = [position]
    if let (place, edge) = itemUnderPointer(in: position), edge == .center,
      let opened = board.item(board.targets[position].items[place - 1])?.opens,
      let openedPosition = board.position(of: opened)
    {
      destinations.append(openedPosition)
    }
    return draggedOpeners.contains { opener in destinations.contains { board.isWithin($0, subtreeOf: opener) } }
  }

  /// Moves targets' frames after a layout change: between drags at once; during a drag
  /// as a step, after which the pointer, where it is, is hit-tested again. Frames are
  /// the app's: a drag's rollback keeps them.
  @discardableResult
  public func setFrames(_ frames: [TargetID: Rect]) throws(DragError) -> Proposal? {
    for id in frames.keys.sorted() where currentBoard.position(of: id) == nil { throw .unknownTarget(id) }
    // The hit-tester follows at once (``currentBoard``'s observer), before the step
    // hit-tests the pointer again.
    // One change of the board, so its observer rebuilds the hit-tester once.
    try? currentBoard.setFrames(frames)
    guard drag != nil else { return nil }
    return try pointerStep(.frames(frames), to: nil, within: nil, index: nil)
  }
}
