import DropRules
import DropRulesLua
import Foundation
import Synchronization

/// Running test files on several threads at once.
extension RuleTestRunner {
  /// The most threads `run(files:jobs:)` takes.
  public static let maximumJobs = 64

  /// Runs every test in `files` on up to `jobs` threads, a file at a time per thread, and
  /// returns the results in the order of `files`, exactly as one thread would.
  ///
  /// Each file runs on a worker of its own settings and Lua states (a ``LuaRuntime`` is
  /// confined to the thread that made it, so a worker makes its own), and its coverage
  /// joins this runner's when it is done. Files share nothing else: one file's tests
  /// cannot slow or change another's beyond sharing the machine.
  public func run(files: [String], jobs: Int) -> [TestCaseResult] {
    let files = order?.files(files) ?? files
    let threads = min(max(1, jobs), Self.maximumJobs, files.count)
    guard threads > 1 else { return run(files: files) }
    let work = ParallelTestWork(files: files, settings: settings)
    let finished = DispatchGroup()
    for _ in 0..<threads {
      finished.enter()
      let thread = Thread {
        work.runFiles()
        finished.leave()
      }
      // As much stack as the main thread: rules run deep Lua and deep copies of tables.
      thread.stackSize = 8 << 20
      thread.start()
    }
    finished.wait()
    let outcomes = work.outcomes
    for (file, outcome) in zip(files, outcomes) {
      coverage?.record(hits: outcome.coverage)
      if let loaded = outcome.ruleFilesLoaded { ruleFilesLoaded[file] = loaded }
    }
    return outcomes.flatMap(\.results)
  }

  /// What a worker needs to run files as this runner does.
  var settings: Settings {
    Settings(
      limits: limits, maximumScenarioBytes: maximumScenarioBytes, moduleRoot: moduleRoot, selection: selection,
      order: order, collectsCoverage: coverage != nil)
  }

  /// Everything that decides how a file runs; a worker runner is made from it.
  struct Settings: Sendable {
    var limits: LuaLimits
    var maximumScenarioBytes: Int
    var moduleRoot: String?
    var selection: TestSelection
    /// Orders each file's tests; a worker runs one file, so the files' order is the caller's.
    var order: TestOrder?
    var collectsCoverage: Bool

    func makeRunner() -> RuleTestRunner {
      let runner = RuleTestRunner(limits: limits, collectCoverage: collectsCoverage)
      runner.maximumScenarioBytes = maximumScenarioBytes
      runner.moduleRoot = moduleRoot
      runner.selection = selection
      runner.order = order
      return runner
    }
  }
}

/// The files of a parallel run: workers take the next file not yet taken, and leave its
/// results in its place.
private final class ParallelTestWork: Sendable {
  struct Outcome: Sendable {
    var results: [TestCaseResult] = []
    var coverage: [String: [Int: Int]] = [:]
    var ruleFilesLoaded: Set<String>?
  }

  private struct State {
    var next = 0
    var outcomes: [Outcome]
  }

  let files: [String]
  let settings: RuleTestRunner.Settings
  private let state: Mutex<State>

  init(files: [String], settings: RuleTestRunner.Settings) {
    self.files = files
    self.settings = settings
    state = Mutex(State(outcomes: Array(repeating: Outcome(), count: files.count)))
  }

  var outcomes: [Outcome] { state.withLock { $0.outcomes } }

  /// Runs files until none is left, each on a runner of its own made on this thread.
  func runFiles() {
    while let index = takeFile() {
      let runner = settings.makeRunner()
      let results = runner.run(files: [files[index]])
      let outcome = Outcome(
        results: results, coverage: runner.coverage?.hits ?? [:], ruleFilesLoaded: runner.ruleFilesLoaded[files[index]])
      state.withLock { $0.outcomes[index] = outcome }
    }
  }

  private func takeFile() -> Int? {
    state.withLock { state in
      guard state.next < files.count else { return nil }
      defer { state.next += 1 }
      return state.next
    }
  }
}
