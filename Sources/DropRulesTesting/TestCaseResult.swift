/// The result of one test: a `test(...)` in a `*_test.lua` file, a scenario with
/// `expect`, or a file that failed to load.
public struct TestCaseResult: Sendable {
  /// Whether the test passed, failed, or could not be loaded.
  public enum Status: Sendable, Equatable {
    case passed
    case failed
    /// The test file or scenario could not be loaded; counted as a failure.
    case loadError
    /// Registered with `pending(name)`: a test to write, listed and never run; no failure.
    case pending

    /// `passed`, `failed`, `error` or `pending`, as the JSON report writes it.
    public var name: String {
      switch self {
      case .passed: "passed"
      case .failed: "failed"
      case .loadError: "error"
      case .pending: "pending"
      }
    }

    /// Whether the test counts as a failure of the run.
    public var isFailure: Bool { self == .failed || self == .loadError }
  }

  /// The test file or scenario file the test is in.
  public var file: String
  /// The name given to `test(...)`, the scenario's name, or the file's path for a file
  /// that did not load.
  public var name: String
  /// Whether it passed, failed, or could not be loaded.
  public var status: Status
  /// Why it failed, one entry per failure (`file:line: message`), as raised: reports
  /// escape what they must when they show it.
  public var failures: [String]
  /// How long the test ran, in seconds; 0 for a file that did not load.
  public var durationSeconds: Double
  /// What the test and the rules it drove printed while it ran, raw.
  public var printed: PrintedOutput

  package init(
    file: String, name: String, status: Status, failures: [String] = [], durationSeconds: Double = 0,
    printed: PrintedOutput = PrintedOutput()
  ) {
    self.file = file
    self.name = name
    self.status = status
    self.failures = failures
    self.durationSeconds = durationSeconds
    self.printed = printed
  }

  /// The failures, one a line; nil when there is none.
  public var message: String? { failures.isEmpty ? nil : failures.joined(separator: "\n") }
}
