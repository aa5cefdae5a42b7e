/// The result of one test: a `test(...)` in a `*_test.lua` file, a scenario with
/// `expect`, or a file that failed to load.
public struct TestCaseResult: Sendable {
  public enum Status: Sendable, Equatable {
    case passed
    case failed
    /// The test file or scenario could not be loaded; counted as a failure.
    case loadError
  }

  public var file: String
  public var name: String
  public var status: Status
  /// Why it failed, one entry per failure (`file:line: message`), as raised: reports
  /// escape what they must when they show it.
  public var failures: [String]
  public var durationSeconds: Double

  public init(file: String, name: String, status: Status, failures: [String] = [], durationSeconds: Double = 0) {
    self.file = file
    self.name = name
    self.status = status
    self.failures = failures
    self.durationSeconds = durationSeconds
  }

  /// The failures, one a line; nil when there is none.
  public var message: String? { failures.isEmpty ? nil : failures.joined(separator: "\n") }
}
