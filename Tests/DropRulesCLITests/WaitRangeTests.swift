import DropRulesTestSupport
import Foundation
import Testing

/// A wait out of range is refused in the same words by every driver of drags.
@Suite("Waits out of range")
struct WaitRangeTests {
  static let problem = "expected milliseconds from 0 to 3600000 (an hour), got "

  @Test("a scenario step, a protocol wait and a test's drag:wait refuse -1 and an hour and a millisecond alike")
  func sameWords() throws {
    let directory = try TemporaryDirectory()
    let rules = try directory.write("box.lua", "return { box = { dropUpdated = function() return 'move' end } }")
    for milliseconds in [-1, 3_600_001] {
      let scenario = try directory.write(
        "wait\(milliseconds).scenario.json",
        """
        { "rules": ["box.lua"],
          "board": { "targets": [ { "id": "a", "type": "box", "frame": [0, 0, 100, 100] } ] },
          "drag": { "items": [ { "id": "x", "representations": [ ["public.plain-text", "x"] ] } ] },
          "steps": [ { "at": [10, 10] }, { "wait": \(milliseconds) } ] }
        """)
      let run = try DropRulesBinary.run(["run", scenario])
      #expect(run.status == 2)
      #expect(run.stderr.contains(Self.problem + "\(milliseconds)"), "\(run.stderr)")

      let served = try Serve.run(
        ["--rules", rules],
        requests: [
          try Serve.request(0, "setBoard", ["targets": [["id": "a", "type": "box", "frame": [0, 0, 100, 100]]]]),
          try Serve.request(
            1, "beginDrag", ["items": [["id": "y", "representations": [["public.plain-text", "y"]]]]]),
          try Serve.request(2, "wait", ["ms": milliseconds]),
        ])
      let answers = try Serve.responses(served)
      #expect(answers.last?.errorMessage?.contains(Self.problem + "\(milliseconds)") == true, "\(served.stdout)")

      let test = try directory.write(
        "wait\(milliseconds == -1 ? "low" : "high")_test.lua",
        """
        test("waits", function()
          local sim = scenario { rules = { "box.lua" }, board = { targets = {
            { id = "a", type = "box", frame = { 0, 0, 100, 100 } } } } }
          local drag = sim:drag({ { id = "x", representations = { { "public.plain-text", "x" } } } })
          drag:wait(\(milliseconds))
        end)
        """)
      let tested = try DropRulesBinary.run(["test", test])
      #expect(tested.status == 1)
      #expect(tested.stdout.contains("drag:wait: " + Self.problem + "\(milliseconds)"), "\(tested.stdout)")
    }
  }
}
