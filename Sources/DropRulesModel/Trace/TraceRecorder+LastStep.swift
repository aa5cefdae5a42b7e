/// The step just taken, built from its own events only, so that a caller answering
/// each step (the host protocol) does not rebuild the whole drag's trace every time.
extension TraceRecorder {
  /// The last step as ``steps`` would show it, or nil before any drag.
  var lastStep: TraceStep? {
    guard let start = events.lastIndex(where: { if case .step = $0 { true } else { false } }) else { return nil }
    // The steps of the events from the last step on, read where they are.
    var tail = Self.steps(of: events[start...], expecting: 1)
    guard case .step(let action) = events[start] else { return nil }
    // A begin step in which nothing happened is left out of `steps`; here it is the
    // answer to beginning the drag, so it is kept.
    var step = tail.popLast() ?? TraceStep(number: 0, action: action)
    if case .begin = action {
      step.number = 0
    } else {
      // Every step event after the begin step is numbered from 1.
      step.number = stepCount - 1
    }
    return step
  }
}

extension DragEngine {
  /// The step the engine took last, as ``trace`` shows it: the answer to one call.
  public var lastStep: TraceStep? {
    guard var step = recorder.lastStep else { return nil }
    announce(&step)
    return step
  }
}
