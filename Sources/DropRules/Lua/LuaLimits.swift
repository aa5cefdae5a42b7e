/// The limits every runtime enforces on the rule code it runs.
public struct LuaLimits: Sendable, Equatable {
  /// VM instructions one call may execute, coroutines it resumes included.
  public var maxInstructions: Int
  /// Bytes the whole runtime may hold.
  public var maxMemory: Int

  public static let defaultMaxInstructions = 1_000_000
  public static let defaultMaxMemory = 64 * 1024 * 1024

  public init(maxInstructions: Int = defaultMaxInstructions, maxMemory: Int = defaultMaxMemory) {
    self.maxInstructions = maxInstructions
    self.maxMemory = maxMemory
  }
}
