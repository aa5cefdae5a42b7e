import ArgumentParser
import DropRules
import DropRulesTesting
import Foundation

struct TestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run rule tests: *_test.lua files and scenarios with expectations.",
    discussion: """
      Each test runs in a fresh load of its file (nothing one test changes reaches the \
      next), on fresh simulations; a failing test never stops the others, and a \
      file that does not load counts as a failure. What a test and the rules it drives \
      print is shown under the test. Text output ends with "N passed, N failed".
      Exit status: 0 all passed; 1 any failed, no test was found, or coverage is below \
      --coverage-threshold; 2 a test file, scenario or rule file did not load, or a path \
      is not a test file.
      """
  )

  @Argument(help: "Test files, scenarios or folders to search (default: rules/ if it exists, else the current folder).")
  var paths: [String] = []

  @Option(help: "Output format: text, tap, junit or json.")
  var format: TestFormat = .text

  @Option(help: "Run only tests whose \"file: name\" contains this text.")
  var filter: String?

  @Flag(help: "Report line coverage of the rule files the tests ran.")
  var coverage = false

  @OptionGroup var reportOptions: TestReportOptions

  @OptionGroup var limitOptions: LimitOptions

  @OptionGroup var executionOptions: TestExecutionOptions

  enum TestFormat: String, ExpressibleByArgument, CaseIterable {
    case text, tap, junit, json
  }

  mutating func validate() throws {
    if paths.isEmpty { paths = DefaultRulePaths.paths }
    if reportOptions.list, format == .tap || format == .junit {
      throw ValidationError("--list prints text or json")
    }
    if limitOptions.isolate, collectsCoverage {
      throw ValidationError(
        "coverage counts the lines rule files run in this process; with --isolate they run in worker processes, "
          + "so leave out one of them")
    }
  }

  /// Whether the run collects line coverage.
  var collectsCoverage: Bool {
    coverage || reportOptions.coverageOutput != nil || reportOptions.coverageThreshold != nil
  }

  func run() throws {
    let notTests = RuleTestRunner.notTestFiles(paths)
    guard notTests.isEmpty else {
      for message in notTests { Console.error(message) }
      throw Exit.loadError
    }
    // Taken before the first run, so that a file saved while it runs is run again.
    let watch = executionOptions.watch ? TestWatch(paths: paths) : nil
    let (files, missing) = RuleTestRunner.discover(paths)
    if reportOptions.list {
      try list(makeRunner(), files: files, missing: missing)
      return
    }
    let (runner, exit) = runOnce(files: files, missing: missing)
    if let watch { TestWatchLoop(command: self, watch: watch).run(after: runner) }
    if let exit { throw exit }
  }

  /// A runner with the command's limits, filters, order and coverage.
  func makeRunner() -> RuleTestRunner {
    let runner = RuleTestRunner(limits: limitOptions.limits, filter: filter, collectCoverage: collectsCoverage)
    runner.maximumScenarioBytes = limitOptions.maxScenarioBytes
    runner.moduleRoot = FileManager.default.currentDirectoryPath
    runner.excluded = reportOptions.filterOut
    runner.selection.tags = TestReportOptions.tagList(reportOptions.tags)
    runner.selection.excludedTags = TestReportOptions.tagList(reportOptions.excludeTags)
    runner.order = reportOptions.order()
    return runner
  }

  /// Runs `files`, prints the report, and returns the runner and the exit status the
  /// results call for (nil: all passed).
  func runOnce(files: [String], missing: [String]) -> (runner: RuleTestRunner, exit: ExitCode?) {
    for path in missing { Console.error("\(path): no such file or folder") }
    let runner = makeRunner()
    let results = runner.run(files: files, jobs: executionOptions.jobs)
    var details = TestReport.RunDetails(shuffleSeed: runner.order?.seed)
    if results.isEmpty, missing.isEmpty { details.problems.append(noTestsFound(files: files)) }
    var written = true
    if let recorder = runner.coverage {
      let summary = CoverageSummary(files: recorder.report(), threshold: reportOptions.coverageThreshold)
      if coverage || summary.threshold != nil { details.coverage = summary }
      if let failure = summary.thresholdFailure { details.problems.append(failure) }
      if let path = reportOptions.coverageOutput { written = write(summary.lcov, to: path) }
    }
    print(report(results, details))
    if format == .junit || format == .json { details.problems.forEach(Console.error) }
    if !written || !missing.isEmpty || results.contains(where: { $0.status == .loadError }) {
      return (runner, Exit.loadError)
    }
    if results.contains(where: \.status.isFailure) || !details.problems.isEmpty { return (runner, Exit.failed) }
    return (runner, nil)
  }

  private func report(_ results: [TestCaseResult], _ details: TestReport.RunDetails) -> String {
    switch format {
    case .text: LimitFlags.naming(TestReport.text(results, details))
    case .tap: TestReport.tap(results, details)
    case .junit: TestReport.junit(results, details)
    case .json: TestReport.json(results, details)
    }
  }

  /// Writes the lcov file; false (and a message) when it cannot be written. Written in
  /// place, not atomically: an atomic write renames a new file over the path, which
  /// replaces a symbolic link, a FIFO or (as root) a device such as /dev/stdout instead of
  /// writing through it, and hides a full disk.
  private func write(_ text: String, to path: String) -> Bool {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      Console.error("\(path): cannot write the coverage file: it is a folder; name a file")
      return false
    }
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return true
    } catch {
      Console.error("\(path): cannot write the coverage file (\(error.localizedDescription))")
      return false
    }
  }
}
