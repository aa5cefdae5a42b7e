import DropRulesTestSupport
import Foundation
import Testing

/// `droprules test` coverage in every format, lcov files and thresholds, `--list`,
/// `--shuffle` and `--seed`.
@Suite("droprules test: coverage, listing and order")
struct TestOptionsCommandTests {
  /// A rule with one branch its test never takes: line 4 stays uncovered, 5 of 6 lines run.
  static func partlyCovered() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "box.lua",
      """
      return { box = { performDrop = function() return true end,
        dropUpdated = function(info, target)
          if info.modifiers.option then
            return "move"
          end
          return "copy"
        end,
      } }
      """)
    try scratch.write(
      "box_test.lua",
      """
      test("copies", function()
        local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
        expect(sim:drag({ { id = "x" } }):over("a")):toBe("copy")
      end)
      """)
    return scratch
  }

  @Test("coverage reaches every format: a table, TAP comments, a JUnit suite, a JSON field")
  func coverageInEveryFormat() throws {
    let scratch = try Self.partlyCovered()
    let rule = scratch.url.appendingPathComponent("box.lua").path
    let text = try DropRulesBinary.run(["test", "--coverage", scratch.url.path])
    #expect(text.status == 0, "\(text.stdout)")
    #expect(text.stdout.contains("coverage\n  \(rule)   83.3% (5/6 lines)  uncovered: 4\n  total"))
    #expect(text.stdout.hasSuffix("1 passed, 0 failed\n"))
    let tap = try DropRulesBinary.run(["test", "--coverage", "--format", "tap", scratch.url.path])
    #expect(tap.stdout.contains("\n# coverage\n#   \(rule)   83.3% (5/6 lines)  uncovered: 4\n"))
    let junit = try DropRulesBinary.run(["test", "--coverage", "--format", "junit", scratch.url.path])
    #expect(junit.stdout.contains(#"<property name="coverage" value="83.3"/>"#))
    #expect(junit.stdout.contains(#"<property name="coverage:\#(rule)" value="83.3"/>"#))
    let json = try DropRulesBinary.run(["test", "--coverage", "--format", "json", scratch.url.path])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let coverage = document?["coverage"] as? [String: Any]
    #expect(coverage?["coveredLines"] as? Int == 5)
    #expect(coverage?["executableLines"] as? Int == 6)
    #expect((coverage?["files"] as? [[String: Any]])?.first?["uncovered"] as? [Int] == [4])
    let without = try DropRulesBinary.run(["test", "--format", "json", scratch.url.path])
    #expect(!without.stdout.contains("coverage"))
  }

  @Test("--coverage-output writes a well-formed lcov file, with or without --coverage")
  func lcovFile() throws {
    let scratch = try Self.partlyCovered()
    let output = scratch.url.appendingPathComponent("out/lcov.info").path
    try FileManager.default.createDirectory(
      atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let result = try DropRulesBinary.run(["test", "--coverage-output", output, scratch.url.path])
    #expect(result.status == 0)
    #expect(!result.stdout.contains("coverage"), "the table only with --coverage")
    let lcov = try String(contentsOfFile: output, encoding: .utf8)
    let lines = lcov.split(separator: "\n").map(String.init)
    #expect(lines.first == "TN:droprules")
    #expect(lines.filter { $0.hasPrefix("SF:") } == ["SF:" + scratch.url.appendingPathComponent("box.lua").path])
    let hits = lines.filter { $0.hasPrefix("DA:") }.map { $0.dropFirst(3).split(separator: ",").compactMap { Int($0) } }
    #expect(hits.allSatisfy { $0.count == 2 })
    #expect(hits.map { $0[0] } == hits.map { $0[0] }.sorted())
    #expect(hits.first { $0[0] == 4 }?[1] == 0)
    #expect(lines.contains("LF:\(hits.count)"))
    #expect(lines.contains("LH:\(hits.filter { $0[1] > 0 }.count)"))
    #expect(lines.last == "end_of_record")
    let unwritable = try DropRulesBinary.run(["test", "--coverage-output", scratch.url.path, scratch.url.path])
    #expect(unwritable.status == 2)
    #expect(unwritable.stderr.contains("cannot write the coverage file"))
  }

  @Test("--coverage-output writes through a symbolic link, fails on a full device, and names a folder")
  func lcovWritesInPlace() throws {
    let scratch = try Self.partlyCovered()
    let real = scratch.url.appendingPathComponent("real.info").path
    let link = scratch.url.appendingPathComponent("link.info").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    let linked = try DropRulesBinary.run(["test", "--coverage-output", link, scratch.url.path])
    #expect(linked.status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link is kept")
    #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("TN:droprules\n"))
    if FileManager.default.fileExists(atPath: "/dev/full") {
      let full = try DropRulesBinary.run(["test", "--coverage-output", "/dev/full", scratch.url.path])
      #expect(full.status == 2, "a full disk loses the coverage: that is an error")
      #expect(full.stderr.contains("/dev/full: cannot write the coverage file"))
      let device = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
      #expect(device == .typeCharacterSpecial, "the device is still a device")
    }
    let folder = try DropRulesBinary.run(["test", "--coverage-output", scratch.url.path, scratch.url.path])
    #expect(folder.stderr.contains(": cannot write the coverage file: it is a folder; name a file"))
  }

  @Test(
    "the lcov tool itself reads the file and finds the same lines",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/lcov")))
  func lcovReadsIt() throws {
    let scratch = try Self.partlyCovered()
    let output = scratch.url.appendingPathComponent("lcov.info").path
    _ = try DropRulesBinary.run(["test", "--coverage-output", output, scratch.url.path])
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/lcov")
    process.arguments = ["--summary", output]
    let summary = try CommandResult(running: process)
    #expect(summary.status == 0, "\(summary.stderr)")
    #expect((summary.stdout + summary.stderr).contains("lines......: 83.3% (5 of 6 lines)"))
  }

  @Test("--coverage-threshold fails a passing run below it, says by how much, and passes at or under it")
  func threshold() throws {
    let scratch = try Self.partlyCovered()
    let below = try DropRulesBinary.run(["test", "--coverage-threshold", "90", scratch.url.path])
    #expect(below.status == 1)
    #expect(below.stdout.contains("\ncoverage 83.3% is below the threshold of 90%\n\n1 passed, 0 failed\n"))
    #expect(below.stdout.contains("  total "), "the table shows what is uncovered")
    let json = try DropRulesBinary.run(["test", "--coverage-threshold", "90", "--format", "json", scratch.url.path])
    #expect(json.status == 1)
    #expect(json.stderr.contains("error: coverage 83.3% is below the threshold of 90%"))
    #expect(json.stdout.contains(#""belowThreshold": true"#))
    let met = try DropRulesBinary.run(["test", "--coverage-threshold", "83.3", scratch.url.path])
    #expect(met.status == 0, "\(met.stdout)")
    // 5 of 6 is 83.33...%: a threshold of 83.34 is above it, though both show as 83.3.
    let justAbove = try DropRulesBinary.run(["test", "--coverage-threshold", "83.34", scratch.url.path])
    #expect(justAbove.status == 1)
    #expect(justAbove.stdout.contains("coverage 83.3% is below the threshold of 83.34%"))
  }

  @Test(
    "thresholds, seeds and --list formats that make no sense are refused before anything runs",
    arguments: [
      ["--coverage-threshold", "101"], ["--coverage-threshold", "-1"], ["--coverage-threshold", "nan"],
      ["--coverage-threshold", "inf"], ["--coverage-threshold", "ten"], ["--seed", "-5"], ["--seed", "1e3"],
      ["--list", "--format", "tap"], ["--list", "--format", "junit"], ["--coverage-output", ""],
      ["--format", "xml"],
    ])
  func refusedOptions(_ options: [String]) throws {
    let result = try DropRulesBinary.run(["test", "rules/calendar"] + options)
    #expect(result.status == 64, "\(options): \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test("--list prints file: name per test, honours the filters, runs nothing; exit 1 when none")
  func list() throws {
    let result = try DropRulesBinary.run(["test", "rules/calendar", "--list"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "rules/calendar/calendar_test.lua: an item moves to an empty day without a placeholder")
    #expect(
      lines.contains(
        "rules/calendar/move-to-empty-day.scenario.json: move standup to an empty day, then copy it with option"))
    #expect(lines.last == "9 tests in 2 files")
    #expect(!result.stdout.contains("passed"))
    // Each listed line is the text --filter matches: it selects that test alone.
    let one = try DropRulesBinary.run(["test", "rules/calendar", "--filter", lines[1]])
    #expect(one.stdout.hasSuffix("1 passed, 0 failed\n"))
    let filtered = try DropRulesBinary.run([
      "test", "rules/calendar", "--list", "--filter", "day", "--filter-out", "empty",
    ])
    let names = filtered.stdout.split(separator: "\n").dropLast()
    #expect(names.allSatisfy { $0.contains("day") && !$0.contains("empty") })
    #expect(!names.isEmpty)
    let none = try DropRulesBinary.run(["test", "rules/calendar", "--list", "--filter", "nomatch"])
    #expect(none.status == 1)
    #expect(none.stdout.hasPrefix("no tests found: --filter \"nomatch\" matched none of the 9 tests"))
    let json = try DropRulesBinary.run(["test", "rules/calendar", "--list", "--format", "json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let tests = document?["tests"] as? [[String: Any]]
    #expect(tests?.count == 9)
    #expect(tests?.first?["line"] as? Int != nil)
    #expect(tests?.last?["line"] is NSNull)
  }

  @Test("--list does not run test bodies: a body that would fail is listed, and the listing passes")
  func listRunsNoBody() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("t_test.lua", #"test("would fail", function() error("ran") end)"#)
    let result = try DropRulesBinary.run(["test", scratch.url.path, "--list"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("t_test.lua: would fail\n1 test in 1 file"))
    #expect(!result.stdout.contains("ran") && result.stderr.isEmpty)
    // A name cannot add a line to the listing; a file that does not load is an error.
    try scratch.write("u_test.lua", "test(\"x\\nok\\27[2J\", function() end)")
    try scratch.write("v_test.lua", "test(")
    let hostile = try DropRulesBinary.run(["test", scratch.url.path, "--list"])
    #expect(hostile.status == 2)
    #expect(hostile.stdout.contains(#"u_test.lua: x\nok\u{1B}[2J"#), "\(hostile.stdout)")
    #expect(!hostile.stdout.contains("\u{1B}"))
    #expect(hostile.stderr.contains("v_test.lua:1:"))
  }

  @Test("--shuffle prints its seed; --seed repeats that order; the same tests run, in another order")
  func shuffle() throws {
    func names(_ output: String) -> [String] {
      output.split(separator: "\n").filter { $0.hasPrefix("  ok") || $0.hasPrefix("  FAIL") }.map(String.init)
    }
    let plain = try DropRulesBinary.run(["test", "rules/kanban"])
    let shuffled = try DropRulesBinary.run(["test", "rules/kanban", "--shuffle"])
    #expect(shuffled.status == 0)
    let first = String(shuffled.stdout.prefix { $0 != "\n" })
    #expect(first.hasPrefix("shuffled with seed "))
    let seed = try #require(Int(first.dropFirst("shuffled with seed ".count)))
    let again = try DropRulesBinary.run(["test", "rules/kanban", "--seed", "\(seed)"])
    #expect(again.stdout == shuffled.stdout)
    let seeded = try DropRulesBinary.run(["test", "rules/kanban", "--shuffle", "--seed", "3"])
    #expect(names(seeded.stdout).sorted() == names(plain.stdout).sorted())
    #expect(names(seeded.stdout) != names(plain.stdout))
    let other = try DropRulesBinary.run(["test", "rules/kanban", "--seed", "4"])
    #expect(names(other.stdout) != names(seeded.stdout))
    let tap = try DropRulesBinary.run(["test", "rules/kanban", "--seed", "3", "--format", "tap"])
    let count = names(plain.stdout).count
    #expect(tap.stdout.hasPrefix("TAP version 13\n1..\(count)\n# shuffled with seed 3\n"))
    let json = try DropRulesBinary.run(["test", "rules/kanban", "--seed", "3", "--format", "json"])
    #expect(json.stdout.contains(#""seed": 3"#))
  }

  /// A file that does not load may hold the very tests a filter picks: its error shows
  /// whatever `--filter` says (a red team's file of deeply nested functions was reported
  /// as "registers no test()", exit 1); `--filter-out` naming the file leaves it out.
  @Test("a file that does not load is reported under --filter, and left out by --filter-out naming it")
  func loadErrorsShowUnderFilters() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", "return { box = {} }")
    try scratch.write("box_test.lua", "error('broken on purpose')\ntest('a', function() end)")
    for extra in [[], ["--list"]] {
      let filtered = try DropRulesBinary.run(["test", "box_test.lua", "--filter", "nomatch"] + extra, in: scratch.url)
      #expect(filtered.status == 2)
      // A run reports it among its results; --list, as an error.
      #expect((filtered.stdout + filtered.stderr).contains("box_test.lua:1: broken on purpose"))
    }
    let excluded = try DropRulesBinary.run(["test", "box_test.lua", "--filter-out", "box_test"], in: scratch.url)
    #expect(excluded.status == 1)
    #expect(!excluded.stdout.contains("broken on purpose"))
  }
}
