import DropRules
import DropRulesModel
import DropRulesTesting
import Foundation

/// `droprules test --watch`: after the first run, polls the watched paths and runs again
/// the tests a change calls for, until the process is interrupted (Ctrl-C).
struct TestWatchLoop {
  let command: TestCommand
  var watch: TestWatch
  /// How often the files are looked at: each look is a `stat` per watched file, so the
  /// loop sleeps almost all of the time.
  var interval: TimeInterval = 0.3

  func run(after first: RuleTestRunner) -> Never {
    var watch = watch
    var ruleFilesLoaded = first.ruleFilesLoaded
    Self.flush()
    // Ctrl-C and SIGTERM end the watch, with the usual statuses, even where the parent
    // started it with them ignored (a background job of a script) or blocked (some
    // process launchers block every signal for their children).
    signal(SIGINT) { _ in _exit(130) }
    signal(SIGTERM) { _ in _exit(143) }
    var stopping = sigset_t()
    sigemptyset(&stopping)
    sigaddset(&stopping, SIGINT)
    sigaddset(&stopping, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
    announceWaiting()
    while true {
      Thread.sleep(forTimeInterval: interval)
      var changed = watch.changes()
      guard !changed.isEmpty else { continue }
      // An editor or a checkout writes several files at once: take them in one run.
      Thread.sleep(forTimeInterval: interval)
      changed = Array(Set(changed).union(watch.changes())).sorted()
      let (tests, missing) = RuleTestRunner.discover(command.paths)
      let selected = TestWatch.testsToRun(after: changed, tests: tests, ruleFilesLoaded: ruleFilesLoaded)
      separate(changed: changed, running: selected?.count, of: tests.count)
      // Every test file is gone: say so, rather than report an empty run as a result.
      if tests.isEmpty {
        say("no tests found under \(shownPaths): no *_test.lua file and no scenario with expect")
        announceWaiting()
        continue
      }
      if selected?.isEmpty == true {
        announceWaiting()
        continue
      }
      let (runner, _) = command.runOnce(files: selected ?? tests, missing: missing)
      ruleFilesLoaded.merge(runner.ruleFilesLoaded) { _, new in new }
      announceWaiting()
    }
  }

  /// Output goes out after each run, so that a pipe (an editor's panel, a test) sees it.
  private static func flush() { fflush(nil) }

  private var shownPaths: String { command.paths.map { TextEscaping.visible($0) }.joined(separator: ", ") }

  /// After each run: the watch goes on, and how to end it.
  private func announceWaiting() {
    say("watching \(shownPaths) for changes; Ctrl-C stops")
    Self.flush()
  }

  /// A line of the watch's own: on stdout with text, on stderr with machine formats,
  /// which keep stdout for their documents.
  private func say(_ line: String) {
    if command.format == .text {
      print(line)
    } else {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    }
  }

  /// The line between two runs: what changed and what runs now. Machine formats keep
  /// stdout for their documents, so there it goes to stderr.
  private func separate(changed: [String], running count: Int?, of total: Int) {
    let shown = changed.prefix(3).map { TextEscaping.visible($0) }.joined(separator: ", ")
    let more = changed.count > 3 ? " and \(changed.count - 3) more" : ""
    let running =
      switch count {
      case nil: "running all \(total) test files"
      case 0: "nothing to run"
      case let count?: "running \(count) of \(total) test files"
      }
    say("\n=== changed: \(shown)\(more); \(running) ===")
  }
}
