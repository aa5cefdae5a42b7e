import ArgumentParser
import DropRulesTesting
import Foundation

/// How `droprules test` runs the tests: on how many threads, and whether it goes on
/// watching the files for changes.
struct TestExecutionOptions: ParsableArguments {
  @Option(help: "Test files run at once, each on its own thread (1 to 64; default: the number of cores).")
  var jobs: Int = min(ProcessInfo.processInfo.activeProcessorCount, RuleTestRunner.maximumJobs)

  @Flag(
    help: """
      After the run, watch the paths and run the tests again when a rule, test or scenario \
      file changes (stop with Ctrl-C).
      """)
  var watch = false

  func validate() throws {
    guard (1...RuleTestRunner.maximumJobs).contains(jobs) else {
      throw ValidationError("--jobs must be between 1 and \(RuleTestRunner.maximumJobs)")
    }
  }
}
