import DropRules
import DropRulesTestSupport
import Testing

@testable import DropRulesTesting
@testable import DropRulesTools

/// Time in a drag: `wait` steps pass it, `info.hoverTime` reads it.
@Suite("Dwell: wait steps and info.hoverTime")
struct DwellTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A box that takes a drop only after 500 ms of hovering.
  static let dwellRule = """
    return { box = {
      dropUpdated = function(info, box)
        print(box.id, info.hoverTime)
        if info.hoverTime < 500 then return "forbidden" end
        return "move"
      end,
      performDrop = function(info, box) box:insert(info.items) return true end,
    } }
    """

  @Test("a target that needs 500 ms of dwell forbids, then moves after a wait; entering another starts afresh")
  func dwellThenMove() throws {
    let host = try makeHost(
      rules: Self.dwellRule, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("b") == .forbidden)
    #expect(try host.perform(.wait(milliseconds: 300)) == .proposal(.forbidden))
    #expect(try host.movePointer(to: Point(x: 120, y: 20)) == .forbidden, "moving within the target keeps its time")
    #expect(try host.perform(.wait(milliseconds: 300)) == .proposal(.move))
    #expect(try host.moveOver("a") == .forbidden, "entering another target starts its time afresh")
    #expect(try host.moveOver("b") == .forbidden)
    #expect(try host.perform(.wait(milliseconds: 600)) == .proposal(.move))
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "b") == ["x"])
    #expect(
      host.printedLines == ["b\t0", "b\t300", "b\t300", "b\t600", "a\t0", "b\t0", "b\t600"])
    #expect(host.trace.map(\.action.description).contains("wait 600 ms"))
  }

  @Test("in a test, drag:wait(600) returns the proposal; a scenario's wait step and its JSON say the same")
  func testsAndScenarios() throws {
    try directory.write("box.lua", Self.dwellRule)
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
        expect(function() drag:wait(-1) end):toRaise("whole milliseconds")
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

  @Test("the protocol's wait answers as move does; a wait out of range is invalid params at $.params.ms")
  func protocolWait() throws {
    // Boxes a and b, a holding x.
    let client = try ProtocolClient(rules: Self.dwellRule, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("forbidden"))
    let waited = try client.result("wait", #"{"ms": 600}"#).objectValue
    #expect(waited?["proposal"] == .string("move"))
    #expect(waited?["action"] == .object(["kind": .string("wait"), "ms": .integer(600)]))
    let refused = try client.error("wait", #"{"ms": -5}"#).objectValue
    #expect(refused?["code"] == .integer(-32602))
    #expect(refused?["data"]?.objectValue?["path"] == .string("$.params.ms"))
  }
}
