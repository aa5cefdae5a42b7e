import ArgumentParser
import DropRules
import DropRulesTesting

struct TestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run rule tests: *_test.lua files and scenarios with expectations.",
    discussion: """
      Each test runs in a fresh load of its file (nothing one test changes reaches the \
      next), on fresh simulations; a failing test never stops the others, and a \
      file that does not load counts as a failure. Text output ends with "N passed, N failed".
      Exit status: 0 all passed; 1 any failed; 2 a test file, scenario or rule file did not load.
      """
  )

  @Argument(help: "Test files, scenarios or folders to search.")
  var paths: [String] = ["rules/"]

  @Option(help: "Output format: text, tap or junit.")
  var format: TestFormat = .text

  @Option(help: "Run only tests whose \"file: name\" contains this text.")
  var filter: String?

  @Flag(help: "Report line coverage of the rule files the tests ran.")
  var coverage = false

  @OptionGroup var limitOptions: LimitOptions

  @OptionGroup var executionOptions: TestExecutionOptions

  enum TestFormat: String, ExpressibleByArgument, CaseIterable {
    case text, tap, junit
  }

  func run() throws {
    // Taken before the first run, so that a file saved while it runs is run again.
    let watch = executionOptions.watch ? TestWatch(paths: paths) : nil
    let (files, missing) = RuleTestRunner.discover(paths)
    let (runner, exit) = runOnce(files: files, missing: missing)
    if let watch { TestWatchLoop(command: self, watch: watch).run(after: runner) }
    if let exit { throw exit }
  }

  /// Runs `files`, prints the report, and returns the runner and the exit status the
  /// results call for (nil: all passed).
  func runOnce(files: [String], missing: [String]) -> (runner: RuleTestRunner, exit: ExitCode?) {
    for path in missing { Console.error("\(path): no such file or folder") }
    let runner = RuleTestRunner(limits: limitOptions.limits, filter: filter, collectCoverage: coverage)
    let results = runner.run(files: files, jobs: executionOptions.jobs)
    switch format {
    case .text: print(TestReport.text(results, coverage: runner.coverage?.report()))
    case .tap: print(TestReport.tap(results))
    case .junit: print(TestReport.junit(results))
    }
    if !missing.isEmpty || results.contains(where: { $0.status == .loadError }) { return (runner, Exit.loadError) }
    if results.contains(where: { $0.status != .passed }) { return (runner, Exit.failed) }
    return (runner, nil)
  }
}
