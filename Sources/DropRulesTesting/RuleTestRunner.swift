import DropRules
import Foundation

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
  /// Why it failed, as `file:line: message`.
  public var message: String?
  public var durationSeconds: Double
}

/// Finds and runs rule tests: `*_test.lua` files and `*.scenario.json` files that carry
/// `expect`.
public final class RuleTestRunner {
  public var limits: LuaLimits
  /// Only tests whose `file: name` contains this text run.
  public var filter: String?
  /// Collects line coverage of rule files when set.
  public private(set) var coverage: CoverageRecorder?

  public init(limits: LuaLimits = LuaLimits(), filter: String? = nil, collectCoverage: Bool = false) {
    self.limits = limits
    self.filter = filter
    coverage = collectCoverage ? CoverageRecorder() : nil
  }

  /// Test files and scenarios under `paths` (files or directories), sorted.
  public static func discover(_ paths: [String]) -> (files: [String], missing: [String]) {
    FileDiscovery.files(in: paths, recursive: true, where: FileDiscovery.isTestFile)
  }

  /// Runs every test in `files`; a failing or broken file never stops the others.
  public func run(files: [String]) -> [TestCaseResult] {
    files.flatMap { file in
      file.hasSuffix(".scenario.json") ? runScenario(file) : runTestFile(file)
    }
  }

  private func selected(_ file: String, _ name: String) -> Bool {
    guard let filter, !filter.isEmpty else { return true }
    return "\(file): \(name)".contains(filter)
  }

  private func runScenario(_ file: String) -> [TestCaseResult] {
    let started = Date()
    let scenario: Scenario
    do {
      scenario = try ScenarioDecoder.load(path: file)
    } catch {
      guard selected(file, file) else { return [] }
      return [
        TestCaseResult(file: file, name: file, status: .loadError, message: error.description, durationSeconds: 0)
      ]
    }
    guard scenario.expect != nil, selected(file, scenario.name) else { return [] }
    do {
      var runner = ScenarioRunner(limits: limits)
      runner.lineObserver = coverage.map { recorder in { recorder.record(file: $0, line: $1) } }
      let result = try runner.run(scenario)
      var failures = result.failedExpectations
      if scenario.expect?.errors == nil { failures += result.diagnostics.map { "rule error: \($0)" } }
      return [
        TestCaseResult(
          file: file, name: scenario.name, status: failures.isEmpty ? .passed : .failed,
          message: failures.isEmpty ? nil : failures.joined(separator: "\n"),
          durationSeconds: Date().timeIntervalSince(started))
      ]
    } catch {
      return [
        TestCaseResult(
          file: file, name: scenario.name, status: .loadError, message: error.description,
          durationSeconds: Date().timeIntervalSince(started))
      ]
    }
  }

  private func runTestFile(_ file: String) -> [TestCaseResult] {
    let session = RuleTestSession(file: file, limits: limits, coverage: coverage)
    let tests: [RuleTestSession.TestCase]
    do {
      tests = try session.load()
    } catch {
      guard selected(file, file) else { return [] }
      return [
        TestCaseResult(file: file, name: file, status: .loadError, message: error.description, durationSeconds: 0)
      ]
    }
    return tests.filter { selected(file, $0.name) }.map { test in
      let started = Date()
      let failure = session.run(test)
      return TestCaseResult(
        file: file, name: test.name, status: failure == nil ? .passed : .failed, message: failure,
        durationSeconds: Date().timeIntervalSince(started))
    }
  }
}
