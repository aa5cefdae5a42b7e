/// Explaining the hit-test: which targets under the pointer it passed over, and why.
extension DragEngine {
  /// Records a search and the targets of `underPointer` that the hit-test would have
  /// tried before the one it entered (all of them when it entered none), in the order it
  /// prefers them, each with its reason. Runs only on steps that search the board: a step
  /// within a target that nothing cuts into keeps the last search's skips and records
  /// nothing (see ``TraceRecorder``).
  func recordSkips(among underPointer: [Int], chain: [Int]) {
    recorder.record(.searched)
    let entered = drag?.current
    var passedOver = underPointer.filter { position in
      guard let entered else { return true }
      return position != entered && hitTester.prefers(position, over: entered)
    }
    guard !passedOver.isEmpty else { return }
    passedOver.sort { hitTester.prefers($0, over: $1) }
    // A point inside thousands of stacked frames would otherwise record thousands of
    // events a step; the innermost are the ones that explain.
    for position in passedOver.prefix(Self.maximumSkipsRecorded) {
      guard let reason = skipReason(for: position, chain: chain) else { continue }
      recorder.record(.skipped(SkippedTarget(target: currentBoard.targets[position].id, reason: reason)))
    }
    if passedOver.count > Self.maximumSkipsRecorded {
      recorder.record(.skipsOmitted(passedOver.count - Self.maximumSkipsRecorded))
    }
  }

  /// How many skipped targets a step names; ``TraceStep/skippedOmitted`` counts the rest.
  static let maximumSkipsRecorded = 50

  private func skipReason(for position: Int, chain: [Int]) -> SkipReason? {
    let target = currentBoard.targets[position]
    guard let rule = ruleOfTarget[position] else { return .noRule(targetType: target.type) }
    if !takesPart(position) {
      guard Handler.takesDrops(implementing: { rules.implements($0, in: rule) }) else {
        return .sourceOnly(targetType: target.type)
      }
      return .notAccepted(rules.acceptedTypes(of: rule) ?? [])
    }
    if let refusal = drag?.rejected[position] { return .validateDrop(step: refusal.step, raised: refusal.raised) }
    if let top = chain.first, !chain.contains(position) { return .covered(by: currentBoard.targets[top].id) }
    return nil
  }
}
