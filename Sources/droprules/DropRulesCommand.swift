import ArgumentParser
import DropRules

@main
struct DropRulesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "droprules",
    abstract: "Run, test and check Lua drag-and-drop rules.",
    discussion: """
      Rule files are Lua 5.4 files that return, per drop target type, the callbacks of \
      SwiftUI's DropDelegate: validateDrop, dropEntered, dropUpdated, dropExited and \
      performDrop. Scenario files (*.scenario.json) describe a board and a drag to replay.
      """,
    subcommands: [RunCommand.self, TestCommand.self, CheckCommand.self, BenchCommand.self]
  )
}

/// Options every command that runs rules shares.
struct LimitOptions: ParsableArguments {
  @Option(help: "VM instructions one handler call may execute.")
  var maxInstructions: Int = LuaLimits.defaultMaxInstructions

  @Option(help: "Bytes of memory one rule host may hold.")
  var maxMemory: Int = LuaLimits.defaultMaxMemory

  var limits: LuaLimits { LuaLimits(maxInstructions: maxInstructions, maxMemory: maxMemory) }

  func validate() throws {
    guard maxInstructions > 0 else { throw ValidationError("--max-instructions must be greater than 0") }
    guard maxMemory >= 1 << 20 else { throw ValidationError("--max-memory must be at least 1048576 (1 MiB)") }
  }
}

/// Exit statuses the commands share.
enum Exit {
  /// Expectations or tests failed, a rule raised, or check found problems.
  static let failed = ExitCode(1)
  /// Input could not be loaded.
  static let loadError = ExitCode(2)
}
