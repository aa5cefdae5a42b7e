import Foundation
import Testing

/// Output that cannot be written is an error, not a silent exit 0.
@Suite("stdout on a full disk")
struct StandardOutputErrorTests {
  @Test(
    "a report or definitions written to /dev/full exit 1 and say so, small or large",
    .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")),
    arguments: [
      ["types"], ["test", "rules/calendar", "--format", "json"],
      ["run", "rules/fruitbox/banana.scenario.json", "--format", "html"], ["check", "rules"],
    ])
  func fullDisk(arguments: [String]) throws {
    let process = Process()
    process.executableURL = DropRulesBinary.url
    process.arguments = arguments
    process.currentDirectoryURL = DropRulesBinary.packageRoot
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(stderr == "error: cannot write to standard output: No space left on device\n")
  }
}
