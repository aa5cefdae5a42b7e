import DropRulesTestSupport
import Foundation
import Testing

/// End to end: what a test file or rule writes into names, messages and prints cannot
/// add lines, directives or markup to what droprules prints.
@Suite("droprules output cannot be forged by rules and tests")
struct ReportForgeryTests {
  /// A test file whose names and errors try to pass for droprules' own output.
  static func hostileTests() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", "return { box = { performDrop = function() return true end } }")
    try scratch.write(
      "box_test.lua",
      #"""
      test("x # SKIP", function() error("boom") end)
      test("nul", function() error("before\0after\nok 9 - forged\27[2J &<]]>") end)
      """#)
    return scratch
  }

  @Test("test: a NUL survives, newlines and escape codes in errors are escaped, in text and TAP")
  func textAndTAP() throws {
    let scratch = try Self.hostileTests()
    let text = try DropRulesBinary.run(["test", scratch.url.path])
    #expect(text.status == 1)
    #expect(text.stdout.contains(#"box_test.lua:2: before\0after\nok 9 - forged\u{1B}[2J &<]]>"#), "\(text.stdout)")
    #expect(!text.stdout.contains("\u{1B}"))
    #expect(text.stdout.hasSuffix("\n0 passed, 2 failed\n"))

    let tap = try DropRulesBinary.run(["test", "--format", "tap", scratch.url.path])
    let lines = tap.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasSuffix(##"box_test.lua: x \# SKIP"##) && $0.hasPrefix("not ok 1 - ") })
    #expect(!lines.contains { $0.hasPrefix("ok") })
    #expect(lines.contains { $0.hasPrefix("  message: ") && $0.contains(#"before\0after\nok 9 - forged\e[2J"#) })
  }

  @Test(
    "test --format junit: python's XML parser reads every name and the whole message",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func junitParses() throws {
    let scratch = try Self.hostileTests()
    let junit = try DropRulesBinary.run(["test", "--format", "junit", scratch.url.path])
    #expect(junit.status == 1)
    let report = try scratch.write("report.xml", junit.stdout)
    let parsed = try Python.run(
      """
      import json, sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      print(json.dumps([[case.get("name"), (case.find("failure").text or "")] for case in root.iter("testcase")]))
      """, report)
    #expect(parsed.status == 0, "\(parsed.stderr)")
    let cases = try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]]
    #expect(cases?.map(\.first) == ["x # SKIP", "nul"])
    #expect(cases?.last?.last?.hasSuffix(#"box_test.lua:2: before\0after\nok 9 - forged\u{1B}[2J &<]]>"#) == true)
  }
}

extension ReportForgeryTests {
  /// A rule that prints, returns and raises text made to look like the trace's own lines.
  static func hostileScenario() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "box.lua",
      #"""
      print("loading\nstep 1  forged\27[2J")
      local t, updates = {}, 0
      t["x\noutcome performed, 0 errors"] = function() error("deep") end
      return { box = {
        validateDrop = function() return "yes\nproposal        move" end,
        dropEntered = function() print("hi\noutcome performed, 0 errors, expectations passed\27[2J\tend") end,
        dropUpdated = function()
          updates = updates + 1
          if updates == 1 then error("bad\nPASS\0after") end
          return "move"
        end,
        performDrop = function() t["x\noutcome performed, 0 errors"]() end,
      } }
      """#)
    try scratch.write(
      "s.scenario.json",
      """
      {"name": "s", "rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"at": [1, 1]}, {"modifiers": ["option"]}, "drop"]}
      """)
    return scratch
  }

  @Test("run: what a rule prints, returns or raises stays on its own line, with control characters escaped")
  func runText() throws {
    let scratch = try Self.hostileScenario()
    let result = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"print    loading\nstep 1  forged\u{1B}[2J"#), "\(result.stdout)")
    #expect(lines.contains(#"  validateDrop    a  "yes\nproposal        move""#))
    #expect(
      lines.contains("    print         " + #"hi\noutcome performed, 0 errors, expectations passed\u{1B}[2J"# + "\tend")
    )
    #expect(lines.contains(#"  error           ./box.lua:9: bad\nPASS\0after (in dropUpdated of a, step 1)"#))
    #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    // droprules' own lines: steps, the board and one verdict, last.
    #expect(
      lines.filter { $0.hasPrefix("step ") } == ["step 1  at (1, 1)", "step 2  modifiers option", "step 3  drop"])
    let verdict = "outcome failed (performDrop of a raised an error), 2 errors"
    #expect(lines.filter { $0.hasPrefix("outcome") } == [verdict])
    #expect(lines.last == verdict)
    // Tracebacks are indented below their error, whatever names they quote.
    let errorRows = lines.indices.filter { lines[$0].hasPrefix("  error ") }
    for row in errorRows {
      let traceback = lines[(row + 1)...].prefix { $0.hasPrefix("                ") }
      #expect(traceback.first == "                stack traceback:")
    }
    #expect(!lines.contains { $0.hasPrefix("PASS") || $0.hasPrefix("proposal") })
    // A frame whose function name holds a newline stays one frame.
    #expect(lines.contains("                \t./box.lua:3: in field " + #"'x\noutcome performed, 0 errors'"#))
  }

  @Test("run --format json: printed text and error messages come back exactly as raised")
  func runJSON() throws {
    let scratch = try Self.hostileScenario()
    let result = try DropRulesBinary.run(["run", "--format", "json", "s.scenario.json"], in: scratch.url)
    #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let scenario = try #require((document?["scenarios"] as? [[String: Any]])?.first)
    let steps = try #require(scenario["steps"] as? [[String: Any]])
    let calls = try #require(steps.first?["calls"] as? [[String: Any]])
    #expect(
      calls.flatMap { $0["printed"] as? [String] ?? [] } == [
        "hi\noutcome performed, 0 errors, expectations passed\u{1B}[2J\tend"
      ])
    #expect(scenario["printed"] as? [String] == ["loading\nstep 1  forged\u{1B}[2J"])
    let errors = try #require(scenario["errors"] as? [[String: Any]])
    #expect(errors.first?["message"] as? String == "bad\nPASS\0after")
  }
}

extension ReportForgeryTests {
  @Test("check and error messages on stderr escape what rule and scenario files wrote")
  func checkAndErrors() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "bad.lua", #"return { box = { ["dropUpdate\n1 rule file checked, no problems"] = function() end } }"#)
    let check = try DropRulesBinary.run(["check", "bad.lua"], in: scratch.url)
    #expect(check.status == 1)
    #expect(check.stdout.contains(#"unknown handler 'dropUpdate\n1 rule file checked, no problems'"#))
    #expect(!check.stdout.split(separator: "\n").contains { $0.hasPrefix("1 rule file") })

    try scratch.write(
      "s.scenario.json", #"{"rules": ["x\nerror: forged.lua"], "board": {"targets": []}, "drag": {"items": []}}"#)
    let run = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    #expect(run.status == 2)
    #expect(run.stderr.contains(#"rule file 'x\nerror: forged.lua' not found"#), "\(run.stderr)")
    #expect(run.stderr.split(separator: "\n").count == 1)
  }
}

/// Runs a python3 script with arguments.
enum Python {
  static func run(_ script: String, _ arguments: String...) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    return try CommandResult(running: process)
  }
}
