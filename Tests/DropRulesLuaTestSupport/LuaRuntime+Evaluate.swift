import DropRulesLua

/// Running a snippet in a fresh sandboxed environment, as the Lua tests do.
extension LuaRuntime {
  /// Runs `source` in a fresh sandboxed environment and returns its results.
  @discardableResult
  public func evaluate(_ source: String, globals: [String: LuaValue] = [:]) throws(LuaError) -> [LuaValue] {
    let environment = try newEnvironment(globals: globals)
    let chunk = try load(source: source, chunkName: "=test", environment: environment)
    return try call(chunk)
  }

  /// The first result of ``evaluate(_:globals:)``, or nil.
  public func evaluateFirst(_ source: String, globals: [String: LuaValue] = [:]) throws(LuaError) -> LuaValue {
    try evaluate(source, globals: globals).first ?? .nil
  }
}

/// Values compare by contents; functions and tables the runtime keeps, by identity.
extension LuaValue: Equatable {
  /// Equal contents; the same object for functions and kept tables.
  public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
    switch (lhs, rhs) {
    case (.nil, .nil): true
    case (.boolean(let a), .boolean(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.table(let a), .table(let b)): a.sequence == b.sequence && a.fields == b.fields
    case (.function(let a), .function(let b)), (.reference(let a), .reference(let b)): a === b
    default: false
    }
  }
}
