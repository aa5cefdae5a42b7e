import Foundation
import Testing

/// What a rule can make the process hold, measured as the peak resident memory of a
/// `droprules test` run (its VmHWM, Linux) beside that of a run of an empty test: no order
/// of allocations may turn into memory the cap does not see. An allocator that kept freed
/// blocks in slabs sorted by size class (tried, and reverted) held 412 and 157 MB on these
/// (docs/performance.md); they guard any allocator.
@Suite(
  "Memory a rule can make the host hold", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")),
  .timeLimit(.minutes(2)))
struct HeldMemoryTests {
  /// A table's 256-byte array part shrunk by a rehash to one slot, then freed, a million
  /// times: a shrunk block kept in place and filed under its new size would never be
  /// reused at its old one.
  @Test("tables shrunk by a rehash and freed, a million times, hold little more than an empty test")
  func shrunkBlocks() throws {
    let plain = try peakResidentMegabytes(testFile: #"test("empty", function() end)"#)
    let peak = try peakResidentMegabytes(
      testFile: """
        test("shrink and free", function()
          for i = 1, 1000000 do
            local t = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16}
            for j = 2, 16 do t[j] = nil end
            t[17] = true
          end
        end)
        """)
    #expect(peak - plain < 32, "peak \(peak) MB, an empty test \(plain) MB")
  }

  /// 12 MiB of tables of one size, dropped, then of the next size, through sixteen
  /// sizes, under a 16 MiB cap: memory freed in one size must serve the next.
  @Test("filling a 16 MiB cap with one size of table after another holds about the cap once")
  func sizeAfterSize() throws {
    let arguments = ["--max-memory", "16777216"]
    let plain = try peakResidentMegabytes(testFile: #"test("empty", function() end)"#, arguments: arguments)
    let peak = try peakResidentMegabytes(
      testFile: """
        test("size after size", function()
          for c = 1, 16 do
            local make = load("return function() return {" .. string.rep("1,", c) .. "} end")()
            local keep = {}
            for i = 1, (12 * 1024 * 1024) // (56 + 16 * c + 16) do keep[i] = make() end
            keep = nil
          end
        end)
        """, arguments: arguments)
    // The cap, and as much again for garbage not yet collected and malloc's own.
    #expect(peak - plain < 32, "peak \(peak) MB, an empty test \(plain) MB")
  }

  /// Runs `droprules test` on a file of `testFile` beside an empty rule; fails unless its
  /// test passed. The peak resident memory of that run, in MB.
  private func peakResidentMegabytes(testFile: String, arguments: [String] = []) throws -> Int {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try "return {}\n".write(to: directory.appendingPathComponent("held.lua"), atomically: true, encoding: .utf8)
    try testFile.write(to: directory.appendingPathComponent("held_test.lua"), atomically: true, encoding: .utf8)
    let errors = directory.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    let process = Process()
    process.executableURL = DropRulesBinary.url
    process.arguments = ["test", directory.path] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    // The run's own high-water mark, read until it ends: what it holds stays held until
    // its states close at the end. Only while /proc names this binary for the pid, so a
    // pid reused after the run ended is never read. (wait4's rusage would not do: a child
    // started from this large process is charged this process's peak when it execs.)
    let pid = process.processIdentifier
    let binary = DropRulesBinary.url.resolvingSymlinksInPath().path
    var peakBytes = 0
    while process.isRunning {
      if (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == binary,
        let bytes = peakResidentBytes(of: pid)
      {
        peakBytes = max(peakBytes, bytes)
      }
      usleep(2_000)
    }
    process.waitUntilExit()
    let printed = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    try #require(process.terminationStatus == 0, "droprules test exited with \(process.terminationStatus): \(printed)")
    try #require(peakBytes > 0, "the run's memory was never read")
    return peakBytes / (1024 * 1024)
  }
}
