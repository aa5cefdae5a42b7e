import DropRulesTestSupport
import Foundation
import Testing

/// The library names the setting that raises a limit (`LuaLimits.maxInstructions`); the
/// command's text output names the flag instead, and its JSON keeps the library's words.
@Suite("droprules names its flags where the library names its settings")
struct LimitFlagCommandTests {
  /// A scenario whose rule never ends a call.
  static func runaway() throws -> (TemporaryDirectory, String) {
    let scratch = try TemporaryDirectory()
    try scratch.write("loop.lua", "return { box = { dropUpdated = function() while true do end end } }")
    let path = try scratch.write(
      "loop.scenario.json",
      """
      {"rules": ["loop.lua"], "board": {"targets": [{"id": "b", "type": "box", "frame": [0, 0, 100, 100]}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "b"}], "expect": {"errors": 1}}
      """)
    return (scratch, path)
  }

  @Test("run's text names --max-instructions; its JSON names LuaLimits.maxInstructions and the limit spent")
  func instructionBudget() throws {
    let (scratch, path) = try Self.runaway()
    let text = try DropRulesBinary.run(["run", path, "--max-instructions", "1000"], in: scratch.url)
    #expect(
      text.stdout.contains("loop.lua:1: instruction budget of 1000 exceeded (raise it with --max-instructions)"),
      "\(text.stdout)\(text.stderr)")
    #expect(!text.stdout.contains("LuaLimits"))

    let json = try DropRulesBinary.run(
      ["run", "--format", "json", path, "--max-instructions", "1000"], in: scratch.url)
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let scenario = try #require((document?["scenarios"] as? [[String: Any]])?.first)
    let error = try #require((scenario["errors"] as? [[String: Any]])?.first)
    #expect(
      error["message"] as? String == "instruction budget of 1000 exceeded (raise it with LuaLimits.maxInstructions)")
    #expect(error["limit"] as? String == "instructions")
  }

  @Test("a test's rule error names --max-time in the text report, and the JUnit report keeps LuaLimits.maxTime")
  func deadlineInTests() throws {
    let (scratch, _) = try Self.runaway()
    try scratch.write(
      "loop_test.lua",
      """
      test("the loop is stopped", function()
        local sim = scenario { rules = { "loop.lua" },
          board = { targets = { { id = "b", type = "box", frame = { 0, 0, 100, 100 } } } } }
        sim:drag({ { id = "x" } }):over("b")
      end)
      """)
    let arguments = ["test", "loop_test.lua", "--max-instructions", "1000000000000", "--max-time", "50"]
    let text = try DropRulesBinary.run(arguments, in: scratch.url)
    #expect(text.stdout.contains("time limit of 50 ms exceeded (raise it with --max-time)"), "\(text.stdout)")
    let junit = try DropRulesBinary.run(arguments + ["--format", "junit"], in: scratch.url)
    #expect(junit.stdout.contains("time limit of 50 ms exceeded (raise it with LuaLimits.maxTime)"), "\(junit.stdout)")
  }
}
