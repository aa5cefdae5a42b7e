/// Explaining the hit-test: which targets under the pointer it passed over, and why.
extension DragEngine {
  /// Records the targets of `underPointer` that the hit-test would have tried before
  /// `entered` (all of them when it entered none), in the order it prefers them, each
  /// with its reason. Runs only on steps that search the board: a step within a target
  /// that nothing cuts into keeps the last search's skips and records nothing (its
  /// proposal event says it did not search; see ``TraceRecorder``).
  func recordSkips(among underPointer: [Int], chain: [Int], entered: Int?) {
    // Most points lie in one frame: no list to build or sort for those.
    if underPointer.count == 1 {
      if isPassedOver(underPointer[0], entered: entered) { recordSkip(of: underPointer[0], chain: chain) }
      return
    }
    var passedOver = underPointer.filter { isPassedOver($0, entered: entered) }
    guard !passedOver.isEmpty else { return }
    passedOver.sort { hitTester.prefers($0, over: $1) }
    // A point inside thousands of stacked frames would otherwise record thousands of
    // events a step; the innermost are the ones that explain.
    for position in passedOver.prefix(Self.maximumSkipsRecorded) { recordSkip(of: position, chain: chain) }
    if passedOver.count > Self.maximumSkipsRecorded {
      recorder.record(.skipsOmitted(passedOver.count - Self.maximumSkipsRecorded))
    }
  }

  /// Whether the hit-test would have tried `position` before the target it entered.
  private func isPassedOver(_ position: Int, entered: Int?) -> Bool {
    guard let entered else { return true }
    return position != entered && hitTester.prefers(position, over: entered)
  }

  private func recordSkip(of position: Int, chain: [Int]) {
    guard let reason = skipReason(for: position, chain: chain) else { return }
    recorder.record(.skipped(SkippedTarget(target: currentBoard.targets[position].id, reason: reason)))
  }

  /// How many skipped targets a step names; ``TraceStep/skippedOmitted`` counts the rest.
  static let maximumSkipsRecorded = 50

  private func skipReason(for position: Int, chain: [Int]) -> SkipReason? {
    guard let rule = ruleOfTarget[position] else { return .noRule(targetType: currentBoard.targets[position].type) }
    if !takesPart(position) {
      guard ruleDescriptions[rule]?.takesDrops == true else {
        return .sourceOnly(targetType: currentBoard.targets[position].type)
      }
      return .notAccepted(ruleDescriptions[rule]?.accepts ?? [])
    }
    if hitTester.hasCollapsed, let container = hitTester.closedContainer(of: position, expanded: springLoading.opened) {
      return .closed(in: currentBoard.targets[container].id)
    }
    if let refusal = drag?.rejected[position] { return .validateDrop(step: refusal.step, raised: refusal.raised) }
    if let top = chain.first, !chain.contains(position) { return .covered(by: currentBoard.targets[top].id) }
    return nil
  }
}
