import ArgumentParser
import DropRules
import Foundation

/// `droprules worker`: one rule file's worker process, started by a host run with
/// `--isolate`; it serves that host on standard input. Hidden: people do not run it.
struct WorkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "worker", abstract: "Serve a rule host as a rule file's worker process.", shouldDisplay: false)

  func run() throws { RuleFileWorker.serve() }

  /// The command that starts a worker: this executable, found through /proc (argv[0]
  /// may be a bare name or a relative path the worker's start would not resolve).
  static var command: [String] {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return [executable, "worker"]
  }
}
