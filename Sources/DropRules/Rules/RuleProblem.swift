/// A problem in a rule file, reported as `file:line: message`.
public struct RuleProblem: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Severity: Sendable, Equatable {
    /// The file cannot be used.
    case error
    /// The file loads, but `droprules check` flags it (an accepted type nobody declared).
    case warning
  }

  public var file: String
  public var line: Int?
  public var message: String
  public var severity: Severity

  public init(file: String, line: Int?, message: String, severity: Severity = .error) {
    self.file = file
    self.line = line
    self.message = message
    self.severity = severity
  }

  init(_ error: LuaError, file: String) {
    self.init(file: error.file ?? file, line: error.line, message: error.message)
  }

  public var description: String {
    if let line { return "\(file):\(line): \(message)" }
    return "\(file): \(message)"
  }
}

/// Rule files that could not be loaded, with every problem found.
public struct RuleLoadError: Error, Equatable, CustomStringConvertible {
  public var problems: [RuleProblem]

  public init(problems: [RuleProblem]) { self.problems = problems }

  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
