import DropRulesTestSupport
import Foundation
import Testing

/// Files as editors write them, and files named more than once.
@Suite("Byte order marks and files named twice")
struct InputFileTests {
  static let bom = "\u{FEFF}"

  /// A box rule (requiring a module) with a test, and a scenario that drops on the box;
  /// `firstLine` starts each Lua file.
  func project(bom: Bool, firstLine: String = "") throws -> TemporaryDirectory {
    let mark = bom ? Self.bom : ""
    let scratch = try TemporaryDirectory()
    try scratch.write("lib/answer.lua", mark + firstLine + "return { yes = true }")
    try scratch.write(
      "box.lua",
      mark + firstLine + """
        local answer = require "lib.answer"
        return { box = { performDrop = function() return answer.yes end } }
        """)
    try scratch.write(
      "box_test.lua",
      mark + firstLine + """
        test("a drop performs", function()
          local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
          local drag = sim:drag({ { id = "x" } })
          drag:over("a")
          expect(drag:drop()):toBe("performed")
        end)
        """)
    try scratch.write(
      "s.scenario.json",
      mark
        + #"{"name": "s", "rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},"#
        + #" "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "a"}, "drop"], "expect": {"outcome": "performed"}}"#)
    return scratch
  }

  @Test("rule files, modules, test files and scenarios may start with a UTF-8 byte order mark")
  func byteOrderMarks() throws {
    let scratch = try project(bom: true)
    let run = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.hasSuffix("outcome performed, 0 errors, expectations passed\n"))
    let test = try DropRulesBinary.run(["test", "."], in: scratch.url)
    #expect(test.status == 0, "\(test.stdout)")
    #expect(test.stdout.hasSuffix("2 passed, 0 failed\n"))
    let check = try DropRulesBinary.run(["check", "box.lua"], in: scratch.url)
    #expect(check.stdout == "1 rule file checked, no problems\n")
    // The mark is skipped, not ignored anywhere: an error still names line 2.
    try scratch.write("broken.lua", Self.bom + "return {\n  box = function( }\n")
    let broken = try DropRulesBinary.run(["check", "broken.lua"], in: scratch.url)
    #expect(broken.status == 1)
    #expect(broken.stdout.hasPrefix("broken.lua:2:"), "\(broken.stdout)")
  }

  @Test("rule files, modules and test files may start with a #! line, as Lua's loadfile allows")
  func shebangLines() throws {
    let shebang = "#!/usr/bin/env lua\n"
    let scratch = try project(bom: true, firstLine: shebang)
    let run = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    #expect(run.stdout.hasSuffix("outcome performed, 0 errors, expectations passed\n"), "\(run.stdout)\(run.stderr)")
    let test = try DropRulesBinary.run(["test", "."], in: scratch.url)
    #expect(test.stdout.hasSuffix("2 passed, 0 failed\n"), "\(test.stdout)")
    // The line is emptied, not removed: an error still names line 3.
    try scratch.write("broken.lua", shebang + "return {\n  box = function( }\n")
    let broken = try DropRulesBinary.run(["check", "broken.lua"], in: scratch.url)
    #expect(broken.stdout.hasPrefix("broken.lua:3:"), "\(broken.stdout)")
    // Only a file's first line: `load` of a string, as in Lua, takes none.
    try scratch.write(
      "loads.lua",
      "assert(load('#!x\\nreturn 1') == nil, 'a # line taken') return { box = { performDrop = function() return true end } }"
    )
    let loads = try DropRulesBinary.run(["check", "loads.lua"], in: scratch.url)
    #expect(loads.stdout == "1 rule file checked, no problems\n", "\(loads.stdout)")
  }

  @Test("a #! line before a binary chunk gets the binary chunk's own refusal, not a syntax error")
  func shebangThenBinaryChunk() throws {
    let scratch = try TemporaryDirectory()
    // What a binary chunk starts with (ESC "Lua", the version): refused on its first byte.
    let chunk = "\u{1B}LuaT\0\u{19}\u{13}\r\n\u{1A}\n"
    try scratch.write("plain.lua", chunk)
    try scratch.write("shebang.lua", "#!/usr/bin/env lua\n" + chunk)
    let plain = try DropRulesBinary.run(["check", "plain.lua"], in: scratch.url)
    #expect(
      plain.stdout
        == "plain.lua: binary (precompiled) chunks are not loaded; use the .lua source\n1 problem in 1 rule file\n")
    let shebang = try DropRulesBinary.run(["check", "shebang.lua"], in: scratch.url)
    #expect(shebang.status == plain.status)
    #expect(shebang.stdout == plain.stdout.replacingOccurrences(of: "plain.lua", with: "shebang.lua"))
    // A module with the same two lines gets require's refusal of a binary chunk.
    try scratch.write("lib/compiled.lua", "#!/usr/bin/env lua\n" + chunk)
    try scratch.write("box.lua", "require 'lib.compiled'\nreturn { box = {} }\n")
    let module = try DropRulesBinary.run(["check", "box.lua"], in: scratch.url)
    #expect(module.stdout.contains("is a binary chunk; only .lua source is loaded"), "\(module.stdout)")
  }

  @Test(
    "a rule file named twice loads once: the scenario's own folder, a folder twice, a link",
    arguments: [["--rules", "."], ["--rules", "box.lua", "--rules", "./"], ["--rules", "linked"]])
  func namedTwice(extra: [String]) throws {
    let scratch = try project(bom: false)
    try FileManager.default.createSymbolicLink(
      atPath: scratch.url.appendingPathComponent("linked").path, withDestinationPath: scratch.url.path)
    // Another scenario in the same folder, which names no rule file of its own.
    try scratch.write(
      "bare.scenario.json",
      #"{"name": "bare", "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},"#
        + #" "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "a"}, "drop"], "expect": {"outcome": "performed"}}"#)
    for scenario in ["s.scenario.json", "bare.scenario.json"] {
      let result = try DropRulesBinary.run(["run", scenario] + extra, in: scratch.url)
      #expect(result.status == 0, "\(scenario) \(extra): \(result.stderr)")
      #expect(!result.stderr.contains("already has a rule"))
    }
    let bench = try DropRulesBinary.run(["bench", "s.scenario.json", "--iterations", "2"] + extra, in: scratch.url)
    #expect(bench.status == 0, "\(bench.stderr)")
  }

  @Test("check counts and loads a file named twice once")
  func checkNamedTwice() throws {
    let scratch = try project(bom: false)
    let result = try DropRulesBinary.run(["check", ".", "./", "box.lua"], in: scratch.url)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stdout == "1 rule file checked, no problems\n")
  }
}
