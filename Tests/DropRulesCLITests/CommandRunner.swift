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
  /// Runs `process` to its end and captures what it printed.
  init(running process: Process) throws {
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    self.init(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
