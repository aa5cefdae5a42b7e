import Foundation
import Testing

/// End to end: what a test file or rule writes into names, messages and prints cannot
/// add lines, directives or markup to what droprules prints.
@Suite("droprules output cannot be forged by rules and tests")
struct ReportForgeryTests {
  /// A test file whose names and errors try to pass for droprules' own output.
  static func hostileTests() throws -> Scratch {
    let scratch = try Scratch()
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

/// Runs a python3 script with arguments.
enum Python {
  static func run(_ script: String, _ arguments: String...) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
