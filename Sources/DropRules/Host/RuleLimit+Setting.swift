extension RuleLimit {
  /// The setting of ``LuaLimits`` that raises this limit, as the host's messages name it
  /// (`raise it with LuaLimits.maxInstructions`); the command line names its flag instead.
  public var setting: String {
    switch self {
    case .instructions: "LuaLimits.maxInstructions"
    case .memory: "LuaLimits.maxMemory"
    case .time: "LuaLimits.maxTime"
    }
  }

  /// The limit a runtime error reached; nil for any other error.
  package init?(_ kind: LuaError.Kind) {
    switch kind {
    case .instructionLimit: self = .instructions
    case .memoryLimit: self = .memory
    case .timeLimit: self = .time
    case .syntax, .runtime, .refused: return nil
    }
  }
}
