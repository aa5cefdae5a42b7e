/// The limits every runtime enforces on the rule code it runs.
public struct LuaLimits: Sendable, Equatable {
  /// VM instructions one call may execute, coroutines it resumes and work done inside
  /// the standard library's C functions included.
  public var maxInstructions: Int
  /// Bytes one runtime may hold: the Lua heap plus what the host keeps on the rules'
  /// behalf (printed output, data the rules stored). A rule host gives each rule file
  /// a runtime of its own, each under this cap.
  public var maxMemory: Int
  /// Wall-clock time one call may take; zero turns the deadline off.
  public var maxTime: Duration

  /// The instruction budget per call unless one is given: one million.
  public static let defaultMaxInstructions = 1_000_000
  /// The memory cap unless one is given: 64 MiB.
  public static let defaultMaxMemory = 64 * 1024 * 1024
  /// The deadline per call unless one is given: 250 ms.
  public static let defaultMaxTime = Duration.milliseconds(250)

  /// Limits with the given budget, cap and deadline, each the default when left out.
  public init(
    maxInstructions: Int = defaultMaxInstructions, maxMemory: Int = defaultMaxMemory,
    maxTime: Duration = defaultMaxTime
  ) {
    self.maxInstructions = maxInstructions
    self.maxMemory = maxMemory
    self.maxTime = maxTime
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
