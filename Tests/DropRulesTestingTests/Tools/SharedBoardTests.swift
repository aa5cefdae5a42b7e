import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesTesting
@testable import DropRulesTools

/// Board files shared by scenarios and tests, and the expectations that check more than
/// proposals.
@Suite("Shared board files and step expectations")
struct SharedBoardTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
    try directory.write(
      "list.lua",
      """
      return { list = {
        canDrag = function(item) return item.id ~= "pinned" end,
        dropUpdated = function(info, list) print("over " .. list.id) return "move" end,
        performDrop = function(info, list) list:insert(info.items, info.index) return true end,
      } }
      """)
    try directory.write(
      "two.board.json",
      """
      {"targets": [
        {"id": "a", "type": "list", "frame": [0, 0, 100, 100], "itemExtent": 20,
         "items": [{"id": "x"}, {"id": "pinned"}]},
        {"id": "b", "type": "list", "frame": [100, 0, 100, 100], "itemExtent": 20, "items": [{"id": "y"}]}]}
      """)
  }

  func scenario(_ body: String) throws -> Scenario {
    try ScenarioDecoder.load(path: directory.write("s.scenario.json", #"{"rules": ["list.lua"], "# + body + "}"))
  }

  @Test("a board file serves a scenario; targets, indexes, printed and refused are checked")
  func scenarioWithBoardFile() throws {
    let passing = try ScenarioRunner().run(
      scenario(
        """
        "board": "two.board.json", "drag": {"items": ["x", "pinned"]},
        "steps": [{"at": [150, 5]}, {"at": [150, 35]}, {"at": [500, 500]}, {"over": "b"}, "drop"],
        "expect": {"proposals": ["move", "move", "cancel", "move"], "targets": ["b", "b", null, "b"],
                   "indexes": [1, 2, null, 2], "refused": ["pinned"],
                   "printed": ["over b", "over b", "over b"], "board": {"a": ["pinned"], "b": ["y", "x"]}}
        """))
    #expect(passing.failedExpectations == [])
    let failing = try ScenarioRunner().run(
      scenario(
        """
        "board": "two.board.json", "drag": {"items": ["x"]}, "steps": [{"at": [150, 5]}, "cancel"],
        "expect": {"targets": ["a"], "indexes": [2], "printed": [], "refused": ["x"]}
        """))
    #expect(
      failing.failedExpectations == [
        "targets: expected [a], got [b]", "indexes: expected [2], got [1]",
        #"printed: expected [], got ["over b"]"#, "refused: expected [x], got []",
      ])
  }

  @Test("a wrong error count lists the errors themselves")
  func errorsListed() throws {
    try directory.write("list.lua", "return { list = { dropUpdated = function() error('no list here') end } }")
    let result = try ScenarioRunner().run(
      scenario(
        #""board": "two.board.json", "drag": {"items": ["x"]}, "steps": [{"over": "b"}], "expect": {"errors": 0}"#))
    let failure = try #require(result.failedExpectations.first)
    #expect(failure.hasPrefix("errors: expected 0, got 1: "))
    #expect(failure.hasSuffix("list.lua:1: no list here (in dropUpdated of b, step 1)"))
    #expect(!failure.contains("\n"), "one line, which every report keeps")
  }

  @Test("a board file's own errors name it, with line and column; a path out of the folder is refused")
  func boardFileErrors() throws {
    try directory.write(
      "bad.board.json", "{\"targets\": [\n  {\"id\": \"a\", \"type\": \"list\", \"frame\": [0, 0, -1, 1]}]}")
    #expect {
      try scenario(#""board": "bad.board.json", "drag": {"items": [{"id": "z"}]}"#)
    } throws: { error in
      let text = "\(error)"
      return text.contains("bad.board.json:2:40: width and height must not be negative (at $.targets[0].frame)")
    }
    let outside = try TemporaryDirectory()
    let secret = try outside.write("secret.board.json", "not json at all")
    #expect {
      try scenario(#""board": "\#(secret)", "drag": {"items": [{"id": "z"}]}"#)
    } throws: { error in
      "\(error)".contains("is outside") && !"\(error)".contains("not json")
    }
    #expect {
      try scenario(#""board": "missing.board.json", "drag": {"items": [{"id": "z"}]}"#)
    } throws: { error in "\(error)".contains("board file 'missing.board.json' not found") }
  }

  @Test("a test's scenario{} shares the board file, and refuses a drag, steps or expect it would not run")
  func testSharesTheBoard() throws {
    let file = try directory.write(
      "list_test.lua",
      """
      test("the shared board", function()
        local sim = scenario { board = "two.board.json" }
        expect(sim:items("a")):toEqual({ "x", "pinned" })
        local drag = sim:drag({ "x" })
        expect(drag:over("b")):toBe("move")
      end)
      test("steps would not run", function()
        scenario { board = "two.board.json", steps = { "drop" } }
      end)
      test("expect would not run", function()
        scenario { board = "two.board.json", expect = { outcome = "performed" } }
      end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.status) == [.passed, .failed, .failed], "\(results.map(\.failures))")
    #expect(results[1].failures.first?.contains("list_test.lua:8: scenario{}: 'steps' does not run in a test") == true)
    #expect(results[2].failures.first?.contains("'expect' does not run in a test") == true)
  }

  @Test("an unknown target or item id in a scenario or a test gets a did-you-mean")
  func didYouMean() throws {
    #expect {
      try scenario(#""board": "two.board.json", "drag": {"items": ["x"]}, "steps": [{"over": "bb"}]"#)
    } throws: { "\($0)".contains("no target 'bb' on the board; did you mean b? (at $.steps[0].over)") }
    #expect {
      try scenario(#""board": "two.board.json", "drag": {"items": ["pined"]}"#)
    } throws: { "\($0)".contains("no item 'pined' on the board; did you mean pinned?") }
    let file = try directory.write(
      "list_test.lua",
      """
      test("a typo", function()
        local sim = scenario { board = "two.board.json" }
        sim:drag({ "x" }):over("bb")
      end)
      """)
    let result = try #require(RuleTestRunner().run(files: [file]).first)
    #expect(result.failures.first?.hasSuffix("drag:over: no target 'bb' on the board; did you mean b?") == true)
  }

  @Test("a fractional or NaN index in drag:over is refused, and a board path with a NUL is refused")
  func badIndexesAndPaths() throws {
    let file = try directory.write(
      "list_test.lua",
      """
      test("fraction", function() scenario { board = "two.board.json" }:drag({ "x" }):over("b", { index = 1.5 }) end)
      test("nan", function() scenario { board = "two.board.json" }:drag({ "x" }):over("b", { index = 0 / 0 }) end)
      test("whole", function()
        local drag = scenario { board = "two.board.json" }:drag({ "x" })
        expect(drag:over("b", { index = 2.0 })):toBe("move")
        expect(drag.lastStep.index):toBe(2)
      end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.status) == [.failed, .failed, .passed], "\(results.map(\.failures))")
    #expect(results[0].failures.first?.hasSuffix("drag:over: index must be a whole number, got 1.5") == true)
    #expect {
      try scenario("\"board\": \"two.board.json\\u0000../x\", \"drag\": {\"items\": [\"x\"]}")
    } throws: { "\($0)".contains("without NUL characters") }
  }
}
