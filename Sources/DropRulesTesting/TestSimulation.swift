import DropRules
import DropRulesModel

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
  /// The number of the current drag's last step in ``calls``.
  private var lastStepLogged: Int?

  init(host: RuleHost) { self.host = host }

  /// The diagnostics the test has not taken.
  var untakenErrors: ArraySlice<Diagnostic> { host.diagnostics.dropFirst(errorsTaken) }

  /// Adds the calls of the step the drag just made (each step is logged right after
  /// it, so the last one is all there is to read: reading the whole trace would cost
  /// a long drag every step).
  func logCalls(newDrag: Bool) {
    if newDrag { lastStepLogged = nil }
    guard let step = host.lastStep, step.number != lastStepLogged else { return }
    lastStepLogged = step.number
    calls += step.calls.map {
      SpiedCall(call: $0, step: step.number, targetType: host.engine.currentBoard.target($0.target)?.type)
    }
  }
}
