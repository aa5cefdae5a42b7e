import DropRulesTestSupport
import Foundation
import Testing

@Suite("droprules fuzz")
struct FuzzCommandTests {
  @Test("a bundled scenario fuzzes clean: exit 0, and the report says how many drags ran")
  func clean() throws {
    let result = try DropRulesBinary.run([
      "fuzz", "rules/calendar", "--scenario", "rules/calendar/move-to-empty-day.scenario.json", "--drags", "300",
      "--seed", "5",
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasPrefix("fuzz rules/calendar/move-to-empty-day.scenario.json, seed 5\n  300 drags, "))
    #expect(result.stdout.hasSuffix("  ok: nothing broke\n"))
  }

  @Test("a broken rule: exit 1, the property and the rule's line, a scenario that run replays; the same seed again")
  func broken() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "lists.lua",
      """
      return { list = {
        dropUpdated = function(info, list) return "copy" end,
        performDrop = function(info, list) list:insert(info.items, info.index) return true end,
      } }
      """)
    try scratch.write(
      "lists.scenario.json",
      """
      {"name": "lists", "rules": ["lists.lua"], "board": {"targets": [
        {"id": "a", "type": "list", "frame": [0, 0, 100, 100], "itemExtent": 20, "items": [{"id": "x"}, {"id": "y"}]},
        {"id": "b", "type": "list", "frame": [100, 0, 100, 100], "itemExtent": 20}]},
       "drag": {"items": ["x"]}, "steps": []}
      """)
    let arguments = ["fuzz", ".", "--scenario", "lists.scenario.json", "--drags", "500", "--seed", "3", "--out", "out"]
    let first = try DropRulesBinary.run(arguments, in: scratch.url)
    #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
    #expect(first.stdout.contains("FAIL no rule error: target:insert: the drag is a copy"), "\(first.stdout)")
    #expect(first.stdout.contains("lists.lua:3)"))
    let replay = try #require(first.stdout.split(separator: "\n").first { $0.contains("replay it: droprules run ") })
    let file = String(replay.split(separator: " ").last ?? "")
    let run = try DropRulesBinary.run(["run", file], in: scratch.url)
    #expect(run.status == 1, "the replay shows the rule error again")
    #expect(run.stdout.contains("a copy never takes from its source"))
    let json = try DropRulesBinary.run(arguments + ["--format", "json"], in: scratch.url)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let failure = try #require(report["failure"] as? [String: Any])
    #expect(failure["property"] as? String == "no rule error")
    #expect(failure["line"] as? Int == 3)
    // The same seed breaks the same drag again.
    let drag = try #require(failure["drag"] as? Int)
    #expect(first.stdout.contains("at drag \(drag) of seed 3;"), "\(first.stdout)")
  }

  @Test("a *_test.lua named on the command line gives its properties; it is not loaded as a rule file")
  func namedTestFile() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "box.lua",
      """
      return { box = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, box) box:insert(info.items) return true end,
      } }
      """)
    try scratch.write(
      "p_test.lua", #"property("b stays empty", function(board) return #board.targets.b.items == 0 end)"#)
    try scratch.write(
      "s.scenario.json",
      #"{"rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#
    )
    let result = try DropRulesBinary.run(
      ["fuzz", "p_test.lua", "--scenario", "s.scenario.json", "--drags", "300", "--seed", "1", "--out", "out"],
      in: scratch.url)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("FAIL b stays empty"), "\(result.stdout)\(result.stderr)")
  }

  @Test("--max-seconds stops a run of slow rules and says so; the drags made were checked")
  func timeLimit() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "slow.lua",
      """
      return { box = {
        dropUpdated = function(info)
          if not info.allowedOperations.move then return "forbidden" end
          local x = 0
          for i = 1, 200000 do x = x + i end
          return "move"
        end,
        performDrop = function(info, box) box:insert(info.items) return true end,
      } }
      """)
    try scratch.write(
      "slow.scenario.json",
      #"{"rules": ["slow.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#
    )
    let result = try DropRulesBinary.run(
      ["fuzz", "--scenario", "slow.scenario.json", "--drags", "10000000", "--seed", "1", "--max-seconds", "1"],
      in: scratch.url)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("stopped at the time limit (--max-seconds) after "))
    #expect(result.stdout.hasSuffix("  ok: nothing broke\n"))
    let bad = try DropRulesBinary.run(
      ["fuzz", "--scenario", "slow.scenario.json", "--max-seconds", "0"], in: scratch.url)
    #expect(bad.status == 64)
  }

  @Test("a scenario that does not load exits 2 and names it")
  func badInput() throws {
    let result = try DropRulesBinary.run(["fuzz", "rules/calendar", "--scenario", "nowhere.scenario.json"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("nowhere.scenario.json"))
    let drags = try DropRulesBinary.run([
      "fuzz", "--scenario", "rules/calendar/move-to-empty-day.scenario.json", "--drags", "0",
    ])
    #expect(drags.status == 64)
    let seed = try DropRulesBinary.run(
      ["fuzz", "--scenario", "rules/calendar/move-to-empty-day.scenario.json", "--seed", "18446744073709551615"])
    #expect(seed.status == 64)
    #expect(seed.stderr.contains("--seed must be between 0 and 9223372036854775807"))
  }
}
