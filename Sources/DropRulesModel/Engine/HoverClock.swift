/// The drag's clock, in milliseconds since it began, and when the pointer entered the
/// current target: what `info.hoverTime` counts. Only `wait` steps move it, so replays
/// and tests repeat.
struct HoverClock {
  /// Milliseconds since the drag began.
  private(set) var now = 0
  private var enteredAt = 0

  /// How long the pointer has rested on the current target.
  var hoverTime: Int { now - enteredAt }

  /// A `wait` step: `milliseconds` pass (the step clamped them to ``DragStep/longestWait``).
  mutating func pass(_ milliseconds: Int) { now &+= milliseconds }

  /// The pointer entered a target: its hover time counts from now.
  mutating func enterTarget() { enteredAt = now }
}
