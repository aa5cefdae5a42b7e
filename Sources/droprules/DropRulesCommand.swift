import ArgumentParser
import DropRules
import DropRulesLua
import DropRulesTools
import Foundation

@main
struct DropRulesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "droprules",
    abstract: "Run, test and check Lua drag-and-drop rules.",
    discussion: """
      Rule files are Lua 5.4 files that return, per drop target type, the callbacks of \
      SwiftUI's DropDelegate: validateDrop, dropEntered, dropUpdated, dropExited and \
      performDrop. Scenario files (*.scenario.json) describe a board and a drag to replay.
      """,
    version: DropRulesVersion.current,
    subcommands: [
      RunCommand.self, TestCommand.self, CheckCommand.self, BenchCommand.self, InitCommand.self, TypesCommand.self,
      ServeCommand.self, PlayCommand.self, FuzzCommand.self, TableCommand.self, DiffCommand.self,
      WorkerCommand.self,
    ]
  )

  /// Runs the command as ArgumentParser does, then flushes stdout: a report written to a
  /// full disk (`> /dev/full`) was lost at exit while the command exited 0.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
    if StandardOutput.failed() {
      Console.error("cannot write to standard output: \(String(cString: strerror(errno)))")
      exit(withError: Exit.failed)
    }
  }
}

/// Options every command that runs rules shares.
struct LimitOptions: ParsableArguments {
  // Unconditional: "-5" is a value to refuse with a message, not an option.
  @Option(parsing: .unconditional, help: "VM instructions one handler call may execute.")
  var maxInstructions: Int = LuaLimits.defaultMaxInstructions

  // Unconditional: "-5" is a value to refuse with a message, not an option.
  @Option(parsing: .unconditional, help: "Bytes of memory each rule file's Lua state may hold (and each test file's).")
  var maxMemory: Int = LuaLimits.defaultMaxMemory

  // Unconditional: "-5" is a value to refuse with a message, not an option.
  @Option(parsing: .unconditional, help: "Milliseconds one handler call may take (0: no deadline).")
  var maxTime: Int = LuaLimits().maxTimeMilliseconds

  // Unconditional: "-5" is a value to refuse with a message, not an option.
  @Option(
    parsing: .unconditional,
    help: "Bytes a scenario file (and the board file it names) may have (default 16 MiB: about 200,000 targets).")
  var maxScenarioBytes: Int = ScenarioDecoder.maximumFileSize

  @Flag(
    help: """
      Run each rule file in a worker process of its own, stopped once a call overruns \
      --max-time by \(LuaLimits.workerMarginMilliseconds) ms: for rule files you do not trust (a collection \
      their tables make slow can outlast any deadline inside one process).
      """)
  var isolate = false

  var limits: LuaLimits {
    LuaLimits(
      maxInstructions: maxInstructions, maxMemory: maxMemory, maxTime: .milliseconds(maxTime),
      workerCommand: isolate ? WorkerCommand.command : nil)
  }

  /// Ranges that keep every derived figure (budgets of test files, for one) far from overflow.
  static let instructionRange = 1...1_000_000_000_000
  static let memoryRange = (1 << 20)...(1 << 40)
  static let timeRange = 0...3_600_000
  static let scenarioBytesRange = 1024...(4 << 30)

  func validate() throws {
    guard Self.instructionRange.contains(maxInstructions) else {
      throw ValidationError("--max-instructions must be between 1 and 1000000000000, got \(maxInstructions)")
    }
    guard Self.memoryRange.contains(maxMemory) else {
      throw ValidationError(
        "--max-memory must be between 1048576 (1 MiB) and 1099511627776 (1 TiB), got \(maxMemory)")
    }
    guard Self.timeRange.contains(maxTime) else {
      throw ValidationError(
        "--max-time must be between 0 (no deadline) and 3600000 (one hour) milliseconds, got \(maxTime)")
    }
    guard Self.scenarioBytesRange.contains(maxScenarioBytes) else {
      throw ValidationError(
        "--max-scenario-bytes must be between 1024 and 4294967296 (4 GiB), got \(maxScenarioBytes)")
    }
  }
}

/// Exit statuses the commands share.
enum Exit {
  /// Expectations or tests failed, a rule raised, or check found problems.
  static let failed = ExitCode(1)
  /// Input could not be loaded.
  static let loadError = ExitCode(2)
  /// `table` and `diff`: some cells were not computed (the time limit, or a rule given
  /// up on), so the answer is incomplete.
  static let incomplete = ExitCode(3)
}

/// Whether anything written to stdout was lost. glibc drops a buffer it could not write
/// and remembers only the stream's error flag, so flushing is not enough: `ferror`
/// must see the `stdout` stream, and strict concurrency refuses a reference to the C
/// global `stdout`, so its address is looked up by name.
enum StandardOutput {
  static func failed() -> Bool {
    let flushFailed = fflush(nil) != 0
    // RTLD_DEFAULT is a null handle on glibc: search the whole process.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "stdout") else { return flushFailed }
    let stream = symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>.self).pointee
    return flushFailed || ferror(stream) != 0
  }
}
