import Foundation
import Testing

/// The helper every CLI test runs the binary through.
@Suite("Running a command")
struct CommandRunnerTests {
  @Test(
    "a process that fills stderr before it writes stdout is read to its end, not deadlocked",
    .timeLimit(.minutes(1)))
  func largeStandardError() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // 1 MB on stderr is far past a pipe's buffer; only then does it write stdout.
    process.arguments = ["-c", "head -c 1000000 /dev/zero >&2; echo done"]
    let result = try CommandResult(running: process)
    #expect(result.status == 0)
    #expect(result.stdout == "done\n")
    #expect(result.stderr.utf8.count == 1_000_000)
  }
}
