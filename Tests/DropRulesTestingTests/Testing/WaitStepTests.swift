import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRulesTesting
@testable import DropRulesTools

/// `wait` in test files and scenarios passes time that `info.hoverTime` reads.
@Suite("Wait steps in tests and scenarios")
struct WaitStepTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("in a test, drag:wait(600) returns the proposal; a scenario's wait step and its JSON say the same")
  func testsAndScenarios() throws {
    try directory.write("box.lua", SharedRules.dwell)
    let test = try directory.write(
      "box_test.lua",
      """
      test("dwell", function()
        local sim = scenario { board = { targets = {
          { id = "a", type = "box", frame = { 0, 0, 100, 100 }, items = { { id = "x" } } },
          { id = "b", type = "box", frame = { 100, 0, 100, 100 } },
        } } }
        local drag = sim:drag({ "x" })
        expect(drag:over("b")):toBe("forbidden")
        expect(drag:wait(600)):toBe("move")
        expect(drag.lastStep.action):toEqual({ kind = "wait", ms = 600 })
        expect(function() drag:wait(-1) end):toRaise("expected milliseconds from 0 to 3600000")
        expect(drag:drop()):toBe("performed")
      end)
      """)
    let results = RuleTestRunner().run(files: [test])
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures))")
    let scenario = try ScenarioDecoder.load(
      path: try directory.write(
        "s.scenario.json",
        """
        {"rules": ["box.lua"], "board": {"targets": [
           {"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]},
           {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]},
         "drag": {"items": ["x"]}, "steps": [{"over": "b"}, {"wait": 500}, "drop"],
         "expect": {"proposals": ["forbidden", "move"], "outcome": "performed"}}
        """))
    let result = try ScenarioRunner().run(scenario)
    #expect(result.failedExpectations == [])
    #expect {
      try ScenarioDecoder.load(
        path: try directory.write(
          "bad.scenario.json",
          #"{"board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": [{"wait": 1.5}]}"#))
    } throws: { "\($0)".contains("$.steps[0].wait") }
  }
}
