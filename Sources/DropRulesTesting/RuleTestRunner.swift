import DropRules
import DropRulesLua
import DropRulesTools
import Foundation

/// Finds and runs rule tests: `*_test.lua` files and `*.scenario.json` files that carry
/// `expect`.
public final class RuleTestRunner {
  /// The limits of the rule hosts that tests and scenarios make; test code itself gets
  /// 100 times the instructions and the time.
  public var limits: LuaLimits
  /// The most bytes a scenario file (and its board file) may have.
  public var maximumScenarioBytes = ScenarioDecoder.maximumFileSize
  /// Which tests run: by text and by tag.
  public var selection = TestSelection()
  /// Only tests whose `file: name` contains this text run (``TestSelection/filter``).
  public var filter: String? {
    get { selection.filter }
    set { selection.filter = newValue }
  }
  /// Tests whose `file: name` contains any of these texts do not run.
  public var excluded: [String] {
    get { selection.excluded }
    set { selection.excluded = newValue }
  }
  /// Shuffles the files and each file's tests when set; nil keeps their order.
  public var order: TestOrder?
  /// The folder test files `require` modules from first (`?.lua`, `?/init.lua`, and the
  /// same under `src/`), before the test file's own folder, as busted's default path
  /// does: `droprules test` sets the folder it runs in. Nil: beside the test file only.
  public var moduleRoot: String?
  /// Collects line coverage of rule files when set.
  public private(set) var coverage: CoverageRecorder?
  /// The rule files each test file or scenario loaded when it last ran, by test file
  /// (`--watch` runs again the tests of a rule file that changed). A file that did not
  /// load has no entry.
  public internal(set) var ruleFilesLoaded: [String: Set<String>] = [:]

  /// A runner of the tests matching `filter` (all when nil), recording coverage when asked.
  public init(limits: LuaLimits = LuaLimits(), filter: String? = nil, collectCoverage: Bool = false) {
    self.limits = limits
    self.selection = TestSelection(filter: filter)
    coverage = collectCoverage ? CoverageRecorder() : nil
  }

  /// Test files and scenarios under `paths` (files or directories), sorted.
  public static func discover(_ paths: [String]) -> (files: [String], missing: [String]) {
    FileDiscovery.files(in: paths, recursive: true, where: FileDiscovery.isTestFile)
  }

  /// Runs every test in `files`; a failing or broken file never stops the others.
  public func run(files: [String]) -> [TestCaseResult] {
    (order?.files(files) ?? files).flatMap { file in
      file.hasSuffix(".scenario.json") ? runScenario(file) : runTestFile(file)
    }
  }

  /// Whether a file that does not load is reported: unless a `--filter-out` names it,
  /// whatever `--filter` says, because the file may hold the very tests it picks.
  func reportsLoadError(of file: String) -> Bool {
    let subject = "\(file): \(file)"
    return !excluded.contains(where: { !$0.isEmpty && subject.contains($0) })
  }

  func selected(_ file: String, _ name: String) -> Bool { selection.selects(file, name) }

  private func runScenario(_ file: String) -> [TestCaseResult] {
    ruleFilesLoaded[file] = nil
    let started = Date()
    let scenario: Scenario
    do {
      scenario = try ScenarioDecoder.load(path: file, maximumBytes: maximumScenarioBytes)
    } catch {
      guard reportsLoadError(of: file) else { return [] }
      return [
        TestCaseResult(file: file, name: file, status: .loadError, failures: [error.description])
      ]
    }
    ruleFilesLoaded[file] = Set(scenario.rules)
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
          failures: failures,
          durationSeconds: Date().timeIntervalSince(started),
          printed: PrintedOutput(result.loadOutput + result.trace.flatMap(\.printed)))
      ]
    } catch {
      return [
        TestCaseResult(
          file: file, name: scenario.name, status: .loadError, failures: [error.description],
          durationSeconds: Date().timeIntervalSince(started))
      ]
    }
  }

  private func runTestFile(_ file: String) -> [TestCaseResult] {
    ruleFilesLoaded[file] = nil
    let testFile = RuleTestFile(file: file, limits: limits, coverage: coverage, moduleRoot: moduleRoot)
    let tests: [RuleTestFile.TestCase]
    do {
      tests = try testFile.load()
    } catch {
      guard reportsLoadError(of: file) else { return [] }
      return [
        TestCaseResult(file: file, name: file, status: .loadError, failures: [error.description])
      ]
    }
    defer { ruleFilesLoaded[file] = testFile.ruleFilesLoaded }
    let chosen = tests.filter { selected(file, $0.name) }
    let ordered = order?.tests(chosen, inFile: file) ?? chosen
    testFile.willRun(ordered)
    return ordered.map { test in
      let started = Date()
      let outcome = testFile.run(test)
      return TestCaseResult(
        file: file, name: test.name, status: outcome.status, failures: outcome.failures,
        durationSeconds: Date().timeIntervalSince(started), printed: testFile.printed)
    }
  }
}
