import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

@Suite("Scenario expectations and error paths")
struct ScenarioExpectationTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A box whose drop sets `count` to 2 and removes `stale`.
  func scenario(expect: String) throws -> Scenario {
    try directory.write(
      "rules.lua",
      """
      return { box = { performDrop = function(info, box)
        box:set("count", 2)
        box:set("stale", nil)
        return true
      end } }
      """)
    let path = try directory.write(
      "s.scenario.json",
      """
      {"rules": ["rules.lua"],
       "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10], "data": {"stale": true}}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "a"}, "drop"], "expect": \(expect)}
      """)
    return try ScenarioDecoder.load(path: path)
  }

  @Test("data expectations check only the keys they name; null expects a key to be gone")
  func dataExpectations() throws {
    let passing = try ScenarioRunner().run(scenario(expect: #"{"data": {"a": {"count": 2, "stale": null}}}"#))
    #expect(passing.failedExpectations.isEmpty)

    let failing = try ScenarioRunner().run(scenario(expect: #"{"data": {"a": {"count": 3, "stale": true}}}"#))
    #expect(
      failing.failedExpectations == [
        "data.a.count: expected 3, got 2", "data.a.stale: expected true, got null",
      ])
  }

  @Test("a data expectation for a target not on the board is a load error with its path")
  func unknownTarget() throws {
    let error = #expect(throws: ScenarioError.self) { try scenario(expect: #"{"data": {"b": {"count": 2}}}"#) }
    #expect(error?.path == "expect.data.b")
    #expect(error?.message == "no target 'b' on the board")
  }

  @Test("a file that is not JSON is an error naming the file, line and column")
  func malformedFile() throws {
    let path = try directory.write(
      "bad.scenario.json", "{\n  \"board\": {\"targets\": [\n    {\"id\": \"a\",}\n  ]}\n}")
    let error = #expect(throws: ScenarioError.self) { try ScenarioDecoder.load(path: path) }
    #expect(error?.line == 3)
    #expect(error?.column == 16)
    #expect(
      error?.description
        == "\(path):3:16: not valid JSON: expected a key after ',', found '}' (JSON allows no trailing comma)")
  }

  @Test("error paths count list elements from 0 in JSON and from 1 in Lua test tables")
  func indexBase() throws {
    let spec: JSONValue = .object([
      "board": .object([
        "targets": .array([.object(["id": .string("a"), "type": .string("box"), "frame": .array([.number(1)])])])
      ])
    ])
    for (firstIndex, path) in [(0, "board.targets[0].frame"), (1, "board.targets[1].frame")] {
      let decoder = ScenarioDecoder(file: "t", baseDirectory: directory.path, firstIndex: firstIndex)
      let error = #expect(throws: ScenarioError.self) {
        try decoder.decode(spec, defaultRules: [], requiresDrag: false)
      }
      #expect(error?.path == path)
    }
  }
}
