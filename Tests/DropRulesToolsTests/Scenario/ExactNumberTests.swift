import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

@Suite("Integers keep their exact value: scenario, Lua, target:set, expectations, trace")
struct ExactNumberTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A box whose drop reads its data in Lua and stores integers past 2^53 back.
  private func run(expect: String) throws -> ScenarioResult {
    try directory.write(
      "rules.lua",
      """
      return { box = { performDrop = function(info, box)
        local d = box.data
        box:set("n", math.maxinteger)
        box:set("big2", d.big + 1)
        box:set("kinds", table.concat(
          { math.type(d.big), math.type(d.max), math.type(d.min), math.type(d.half), math.type(d.one) }, " "))
        box:set("same", d.big == 9007199254740993 and d.max == math.maxinteger and d.min == math.mininteger)
        box:set("float", 2.0)
        return true
      end } }
      """)
    let path = try directory.write(
      "exact.scenario.json",
      """
      {"rules": ["rules.lua"],
       "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10],
         "data": {"big": 9007199254740993, "max": 9223372036854775807, "min": -9223372036854775808,
                  "half": 0.5, "one": 1.0}}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "a"}, "drop"],
       "expect": \(expect)}
      """)
    return try ScenarioRunner().run(ScenarioDecoder.load(path: path))
  }

  @Test("integers past 2^53 reach Lua as integers, come back through target:set and match exactly")
  func roundTrip() throws {
    let result = try run(
      expect: """
        {"data": {"a": {"n": 9223372036854775807, "big2": 9007199254740994, "same": true,
                        "kinds": "integer integer integer float float", "one": 1.0, "float": 2.0}}}
        """)
    #expect(result.diagnostics.isEmpty)
    #expect(result.failedExpectations.isEmpty)
    let data = result.board.target("a")?.data ?? [:]
    #expect(data["n"] == .integer(.max))
    #expect(data["big2"] == .integer(9_007_199_254_740_994))
    #expect(data["float"] == .number(2.0))
  }

  @Test("an expectation one off a large integer fails, naming both exact values")
  func oneOff() throws {
    let result = try run(expect: #"{"data": {"a": {"n": 9223372036854775806, "float": 2}}}"#)
    #expect(
      result.failedExpectations == [
        "data.a.float: expected 2, got 2.0", "data.a.n: expected 9223372036854775806, got 9223372036854775807",
      ])
  }

  @Test("the JSON and text traces write integers exactly and doubles as doubles")
  func traces() throws {
    let result = try run(expect: "{}")
    let json = TraceReport().json([result])
    #expect(json.contains(#""n": 9223372036854775807"#))
    #expect(json.contains(#""big": 9007199254740993"#))
    #expect(json.contains(#""big2": 9007199254740994"#))
    #expect(json.contains(#""min": -9223372036854775808"#))
    #expect(json.contains(#""one": 1.0"#))
    let board = try #require(
      try JSONValue.parse(json).objectValue?["scenarios"]?.arrayValue?.first?.objectValue?["data"])
    #expect(board.objectValue?["a"]?.objectValue?["n"] == .integer(.max))

    let text = TraceReport().text(result)
    #expect(text.contains(#""big2":9007199254740994"#))
    #expect(text.contains(#""n":9223372036854775807"#))
  }
}
