import Foundation

/// Runs the built `droprules` binary from the package root.
struct CommandResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

enum DropRulesBinary {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Next to the test bundle, where `swift build` puts products.
  static var url: URL {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("droprules")
    if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
    return packageRoot.appendingPathComponent(".build/debug/droprules")
  }

  static func run(_ arguments: [String], in directory: URL = packageRoot) throws -> CommandResult {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    return try CommandResult(running: process)
  }
}

extension CommandResult {
  /// Runs `process` to its end and captures what it printed. Both pipes are read at once
  /// (stderr on another thread): reading one to its end first would deadlock once the
  /// process filled the other pipe's buffer.
  init(running process: Process) throws {
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorText = CapturedOutput()
    let readingErrors = DispatchGroup()
    DispatchQueue.global().async(group: readingErrors) {
      errorText.data = errors.fileHandleForReading.readDataToEndOfFile()
    }
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    readingErrors.wait()
    process.waitUntilExit()
    self.init(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errorText.data, as: UTF8.self))
  }
}

/// What one pipe delivered, written on the reading thread and read after it finished
/// (the dispatch group's wait orders the two).
private final class CapturedOutput: @unchecked Sendable {
  var data = Data()
}
