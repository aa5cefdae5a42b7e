/// A problem in a rule file, reported as `file:line: message`.
public struct RuleProblem: Error, Equatable, Sendable, Codable, CustomStringConvertible {
  /// How bad a problem is.
  public enum Severity: Sendable, Equatable, Codable {
    /// The file cannot be used.
    case error
    /// The file loads, but `droprules check` flags it (an accepted type nobody declared).
    case warning
  }

  /// The rule file, as it was named.
  public var file: String
  /// The line the problem is on, when Lua or the loader knows it.
  public var line: Int?
  /// What is wrong, and what to do about it.
  public var message: String
  /// Whether the file can be used.
  public var severity: Severity

  /// A problem at a place in a rule file; an error unless said otherwise.
  public init(file: String, line: Int?, message: String, severity: Severity = .error) {
    self.file = file
    self.line = line
    self.message = message
    self.severity = severity
  }

  init(_ error: LuaError, file: String) {
    self.init(file: error.file ?? file, line: error.line, message: error.message)
  }

  /// `file:line: message`, the form editors and rule authors read.
  public var description: String {
    if let line { return "\(file):\(line): \(message)" }
    return "\(file): \(message)"
  }
}

/// Rule files that could not be loaded, with every problem found.
public struct RuleLoadError: Error, Equatable, CustomStringConvertible {
  /// Every problem of every file, errors only.
  public var problems: [RuleProblem]

  /// An error carrying these problems.
  public init(problems: [RuleProblem]) { self.problems = problems }

  /// One `file:line: message` line a problem.
  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
