import DropRules

/// One `scenario{}` of a running test: its rule host, and what the test did with it.
final class TestSimulation {
  /// A handler call the simulation's rules made, for spies.
  struct SpiedCall {
    var call: HandlerCall
    /// The number of the drag step that made it.
    var step: Int
    /// The type of the target it ran for.
    var targetType: String?
  }

  let host: RuleHost
  /// Whether every source refused its last drag: its steps answer `cancel`, and its drop
  /// and cancel `refused`.
  var dragRefused = false
  /// The serial of the drag it runs now: a handle of an earlier drag cannot drive a later one.
  var dragSerial: Int?
  /// How many of the host's diagnostics the test took (`sim:takeErrors()`); those after
  /// it fail the test.
  var errorsTaken = 0
  /// Every handler call of every drag, in order, for spies.
  private(set) var calls: [SpiedCall] = []
  /// How many steps of the current drag's trace are in ``calls``.
  private var stepsLogged = 0

  init(host: RuleHost) { self.host = host }

  /// The diagnostics the test has not taken.
  var untakenErrors: ArraySlice<Diagnostic> { host.diagnostics.dropFirst(errorsTaken) }

  /// Adds the calls of the steps the current drag made since the last look.
  func logCalls(newDrag: Bool) {
    if newDrag { stepsLogged = 0 }
    let trace = host.trace
    guard trace.count > stepsLogged else { return }
    for step in trace[stepsLogged...] {
      calls += step.calls.map { SpiedCall(call: $0, step: step.number, targetType: host.board.target($0.target)?.type) }
    }
    stepsLogged = trace.count
  }
}
