/// One step of a drag once it began: the one verb of the engine. Scenario files, the
/// host protocol, `droprules bench` and rule tests build these values, and
/// ``DragEngine/perform(_:)`` is the one place that carries them out.
public enum DragStep: Hashable, Sendable, CustomStringConvertible {
  /// The pointer moves to a point on the board, in global coordinates.
  case at(Point)
  /// The pointer moves to the centre of a target (its children excluded), optionally
  /// naming the insertion index the rules see.
  case over(TargetID, index: Int?)
  /// The pressed modifiers change; the pointer stays.
  case modifiers(Set<Modifier>)
  /// Time passes without the pointer moving (a dwell): the drag's clock advances, and
  /// the current target is asked again (`info.hoverTime`).
  case wait(milliseconds: Int)
  /// The pointer goes off the board, into an app that takes `accepts` and asks for
  /// `operation`.
  case outside(accepts: [TypeIdentifier], operation: DragOperation)
  /// Targets' frames change after a layout change (the app's, not a rule's); the
  /// pointer, where it is, is hit-tested again.
  case frames([TargetID: Rect])
  case drop
  case cancel

  /// Whether the step ends the drag.
  public var endsDrag: Bool {
    switch self {
    case .drop, .cancel: true
    default: false
    }
  }

  /// The step as written: `at (50, 50)`, `over day-13 index 2`, `modifiers option`, `drop`.
  public var description: String {
    switch self {
    case .outside(let accepts, let operation):
      "outside, into an app that takes " + accepts.map(\.rawValue).joined(separator: ", ") + " as "
        + operation.rawValue
    case .at(let point): "at \(point)"
    case .over(let target, let index): "over \(target)" + (index.map { " index \($0)" } ?? "")
    case .modifiers(let modifiers):
      "modifiers " + (modifiers.isEmpty ? "none" : modifiers.sorted().map(\.rawValue).joined(separator: ", "))
    case .wait(let milliseconds): "wait \(milliseconds) ms"
    case .frames(let frames):
      "frames "
        + frames.sorted { $0.key < $1.key }.map { id, frame in
          "\(id) [" + [frame.x, frame.y, frame.width, frame.height].map(Self.number).joined(separator: ", ") + "]"
        }.joined(separator: ", ")
    case .drop: "drop"
    case .cancel: "cancel"
    }
  }

  /// `100`, or `12.5`: a frame as a person writes it.
  private static func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// The longest wait one step may name: an hour.
  public static let longestWait = 3_600_000

  /// Why a wait of `milliseconds` is refused, in the words every driver of drags gives
  /// (scenario files, the host protocol, rule tests); nil when it is a wait one step may
  /// name.
  public static func waitProblem(_ milliseconds: Int) -> String? {
    (0...longestWait).contains(milliseconds)
      ? nil : "expected milliseconds from 0 to \(longestWait) (an hour), got \(milliseconds)"
  }
}

/// What a step answers: the proposal negotiated after it, or how the drag ended.
public enum DragStepResult: Hashable, Sendable {
  case proposal(Proposal)
  case outcome(DropOutcome)

  /// The proposal, after a pointer, modifier or outside step.
  public var proposal: Proposal? {
    if case .proposal(let proposal) = self { proposal } else { nil }
  }

  /// The outcome, after a drop or a cancel.
  public var outcome: DropOutcome? {
    if case .outcome(let outcome) = self { outcome } else { nil }
  }
}
