/// The limits every runtime enforces on the rule code it runs.
public struct LuaLimits: Sendable, Equatable, Codable {
  /// VM instructions one call may execute, coroutines it resumes and work done inside
  /// the standard library's C functions included.
  public var maxInstructions: Int
  /// Bytes one runtime may hold: the Lua heap plus what the host keeps on the rules'
  /// behalf (printed output, data the rules stored). A rule host gives each rule file
  /// a runtime of its own, each under this cap.
  public var maxMemory: Int
  /// Wall-clock time one call may take; zero turns the deadline off.
  public var maxTime: Duration

  /// How a rule host runs each rule file: nil (the default) in the host's own process;
  /// else in a worker process started with this command (`["/usr/bin/droprules",
  /// "worker"]`, or an app's own executable that calls `RuleFileWorker.serve()`), which
  /// the host stops once a call overruns ``maxTime`` by ``workerMargin``.
  ///
  /// For rule files you do not trust: Lua's collector runs no hook, so a file whose
  /// tables make one collection slow (weak-keyed chains, for one) can outlast any deadline
  /// inside the host's process, and only a process can be stopped in the middle of it.
  /// Each call then costs a round trip to the worker, and a stopped worker starts again,
  /// its file's Lua state fresh, at the file's next call.
  public var workerCommand: [String]?

  /// How long past ``maxTime`` a worker process may take to answer before the host stops it.
  public static let workerMargin = Duration.milliseconds(workerMarginMilliseconds)
  /// ``workerMargin`` in whole milliseconds, for messages and help texts.
  public static let workerMarginMilliseconds = 100

  /// The instruction budget per call unless one is given: one million.
  public static let defaultMaxInstructions = 1_000_000
  /// The memory cap unless one is given: 64 MiB.
  public static let defaultMaxMemory = 64 * 1024 * 1024
  /// The deadline per call unless one is given: 250 ms.
  public static let defaultMaxTime = Duration.milliseconds(250)

  /// Limits with the given budget, cap and deadline, each the default when left out.
  public init(
    maxInstructions: Int = defaultMaxInstructions, maxMemory: Int = defaultMaxMemory,
    maxTime: Duration = defaultMaxTime, workerCommand: [String]? = nil
  ) {
    self.maxInstructions = maxInstructions
    self.maxMemory = maxMemory
    self.maxTime = maxTime
    self.workerCommand = workerCommand
  }

  /// The deadline in nanoseconds, as the C budget holds it (0: none).
  var timeLimitNanoseconds: Int64 {
    let (seconds, attoseconds) = maxTime.components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? Int64.max / 2 : min(Int64.max / 2, nanos + attoseconds / 1_000_000_000)
  }

  /// The deadline in whole milliseconds, for messages.
  public var maxTimeMilliseconds: Int { Int(timeLimitNanoseconds / 1_000_000) }
}
