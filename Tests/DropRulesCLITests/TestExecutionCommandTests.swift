import DropRulesTestSupport
import Foundation
import Synchronization
import Testing

@Suite("droprules test --jobs and --watch")
struct TestExecutionCommandTests {
  /// A folder of passing, failing, broken and hostile test files beside the bundled rules.
  static func scratchSuite() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "box.lua",
      #"return { box = { dropUpdated = function() print("asked") return "copy" end, performDrop = function() return true end } }"#
    )
    try scratch.write(
      "box_test.lua",
      """
      local function sim()
        return scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end
      test("passes", function() expect(sim():drag({ { id = "x" } }):over("a")):toBe("copy") end)
      test("fails", function() expect(sim():drag({ { id = "x" } }):over("a")):toBe("move") end)
      test("spins", function() while true do end end)
      """)
    try scratch.write("broken_test.lua", "test('x', function() end\n")
    try scratch.write("sub/late_test.lua", #"test("\u{1B}[2J sneaky name", function() error("\n0 passed") end)"#)
    return scratch
  }

  @Test(
    "any number of jobs prints what one job prints, byte for byte, with the same exit status",
    arguments: [["--format", "text"], ["--format", "tap"], ["--coverage"]])
  func outputIsStable(options: [String]) throws {
    let scratch = try Self.scratchSuite()
    // A generous deadline: 64 threads on a small, busy machine must not turn a preempted
    // handler call into a timeout, which would differ between runs, not between job counts.
    let arguments = ["test", "rules/", scratch.url.path, "--max-time", "60000"] + options
    let one = try DropRulesBinary.run(arguments + ["--jobs", "1"])
    #expect(one.status == 2)
    #expect(one.stdout.contains("passed"))
    for jobs in ["2", "5", "64"] {
      let many = try DropRulesBinary.run(arguments + ["--jobs", jobs])
      #expect(many.stdout == one.stdout, "--jobs \(jobs)")
      #expect(many.stderr == one.stderr, "--jobs \(jobs)")
      #expect(many.status == one.status, "--jobs \(jobs)")
    }
    // The default (the number of cores) too.
    #expect(try DropRulesBinary.run(arguments).stdout == one.stdout)
  }

  @Test(
    "--jobs outside 1...64 is refused before anything runs",
    arguments: ["0", "-1", "65", "99999999999999999999", "two"])
  func jobsValidated(value: String) throws {
    let result = try DropRulesBinary.run(["test", "rules/calendar", "--jobs", value])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("jobs"))
  }

  /// What a running process has printed so far.
  final class Output: Sendable {
    private let text = Mutex("")
    var current: String { text.withLock { $0 } }
    func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }

    /// Waits until `predicate` holds for the output, up to a minute (a debug build under load).
    func wait(for what: String, _ predicate: (String) -> Bool) throws {
      let deadline = Date().addingTimeInterval(60)
      while !predicate(current) {
        guard Date() < deadline else { throw WatchTimeout(waitingFor: what, output: current) }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
  }

  struct WatchTimeout: Error, CustomStringConvertible {
    var waitingFor: String
    var output: String
    var description: String { "no \(waitingFor) within a minute; output so far:\n\(output)" }
  }

  static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

  @Test("--watch reruns what a change calls for, says when it waits and when no test is left; SIGINT stops it")
  func watch() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "box.lua",
      #"return { box = { dropUpdated = function() return "copy" end, performDrop = function() return true end } }"#)
    let test = """
      test("box answers copy", function()
        local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
        expect(sim:drag({ { id = "x" } }):over("a")):toBe("copy")
      end)
      """
    try scratch.write("box_test.lua", test)
    try scratch.write("shelf.lua", "return { shelf = {} }")
    try scratch.write("shelf_test.lua", #"test("shelf", function() end)"#)
    let process = Process()
    process.executableURL = DropRulesBinary.url
    process.arguments = ["test", scratch.url.path, "--watch", "--jobs", "1"]
    process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    let output = Output()
    pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    try output.wait(for: "first run") { $0.contains("2 passed, 0 failed") }
    // The rule breaks: only its own test runs again, and fails.
    try scratch.write(
      "box.lua",
      #"return { box = { dropUpdated = function() return "forbidden" end, performDrop = function() return true end } }"#
    )
    try output.wait(for: "run after the rule changed") { $0.contains("0 passed, 1 failed") }
    let afterRule = output.current
    #expect(afterRule.contains("=== changed: \(scratch.url.path)/box.lua; running 1 of 2 test files ==="))
    #expect(!(afterRule.components(separatedBy: "===").last ?? "").contains("shelf_test"))
    // The test follows the rule: it passes again.
    try scratch.write("box_test.lua", test.replacingOccurrences(of: #"toBe("copy")"#, with: #"toBe("forbidden")"#))
    try output.wait(for: "run after the test changed") { Self.count("1 passed, 0 failed", in: $0) == 1 }
    // A new test file runs by itself.
    try scratch.write("new_test.lua", #"test("brand new", function() end)"#)
    try output.wait(for: "run of the new test") { $0.contains("ok    brand new") }
    #expect(output.current.contains("new_test.lua; running 1 of 3 test files ==="))
    // After each run it says that it waits, and how to stop it.
    let waiting = "watching \(scratch.url.path) for changes; Ctrl-C stops"
    try output.wait(for: "the waiting line") { Self.count(waiting, in: $0) == 4 }
    // Every test file gone: no empty pass, but a line that says no test was found.
    for name in ["box_test.lua", "shelf_test.lua", "new_test.lua"] {
      try FileManager.default.removeItem(at: scratch.url.appendingPathComponent(name))
    }
    try output.wait(for: "no tests found") { $0.contains("no tests found under \(scratch.url.path)") }

    // Between changes it sleeps: well under a tenth of a core over two seconds.
    let cpuBefore = try Self.cpuSeconds(of: process.processIdentifier)
    Thread.sleep(forTimeInterval: 2)
    let cpuAfter = try Self.cpuSeconds(of: process.processIdentifier)
    #expect(cpuAfter - cpuBefore < 0.2)

    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
  }

  /// User and system CPU time of a process, from /proc.
  static func cpuSeconds(of pid: Int32) throws -> Double {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
    let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
