/// Who watches the engine's handler calls from outside, when anyone does: `droprules
/// bench` times each call, and rule tests show what a handler printed under the test that
/// ran it. Neither changes what a drag does.
public struct CallObservers {
  /// Nanoseconds each handler call took, appended while non-nil.
  public var timings: [HandlerTiming]?
  /// Receives each line a handler printed, as the trace records it.
  public var printed: ((String) -> Void)?

  /// No one watching.
  public init() {}
}
