import DropRulesTestSupport
import Foundation
import Testing

@Suite("droprules run")
struct RunCommandTests {
  @Test("replays the bundled calendar scenario and prints the whole trace")
  func calendarTrace() throws {
    let result = try DropRulesBinary.run(["run", "rules/calendar/move-to-empty-day.scenario.json"])
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        scenario move standup to an empty day, then copy it with option  (rules/calendar/move-to-empty-day.scenario.json)
        rules    rules/calendar/calendar.lua

        step 1  at (50, 50)
          validateDrop    day-12  true
          dropUpdated     day-12  move
          proposal        move
          says            Over day-12: move.

        step 2  over day-13
          validateDrop    day-13  true
          dropUpdated     day-13  move
          proposal        move
          says            Over day-13: move.

        step 3  modifiers option
          dropUpdated     day-13  copy
          proposal        copy
          says            Over day-13: copy.

        step 4  drop
          performDrop     day-13  true
          outcome         performed
          says            Dropped into day-13.

        board
          day-12  standup
          day-13  standup-copy1

        outcome performed, 0 errors, expectations passed

        """)
  }

  @Test("json output is one document with stable keys")
  func jsonOutput() throws {
    let result = try DropRulesBinary.run(["run", "--format", "json", "rules/calendar/move-to-empty-day.scenario.json"])
    #expect(result.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let scenario = try #require((document?["scenarios"] as? [[String: Any]])?.first)
    #expect(scenario["outcome"] as? String == "performed")
    #expect(scenario["proposals"] as? [String] == ["move", "move", "copy"])
    #expect((scenario["steps"] as? [Any])?.count == 4)
  }

  @Test("the JSON trace is data: actions, pointer, results and downgrades are values, prints sit under their call")
  func structuredJSONTrace() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "rules.lua",
      """
      return { box = {
        dropEntered = function(info, box) print("entered " .. box.id) end,
        dropUpdated = function(info, box) print("updated"); return { operation = "move", index = 1 } end,
        performDrop = function() return true end } }
      """)
    let path = try scratch.write(
      "json.scenario.json",
      """
      {"rules": ["rules.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 10]}]},
       "drag": {"items": [{"id": "x", "representations": [["public.plain-text", "x"]]}],
                "allowedOperations": ["copy"]},
       "steps": [{"at": [12.5, 5]}, {"over": "a", "index": 1}, {"modifiers": ["option"]}, "drop"]}
      """)
    let json = try DropRulesBinary.run(["run", "--format", "json", path])
    #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let steps = try #require((document?["scenarios"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
    let actions = steps.map { $0["action"] as? [String: Any] }
    #expect(actions.map { $0?["kind"] as? String } == ["at", "over", "modifiers", "drop"])
    #expect(actions[0]?["point"] as? [Double] == [12.5, 5])
    #expect(actions[1]?["target"] as? String == "a" && actions[1]?["index"] as? Int == 1)
    #expect(actions[2]?["modifiers"] as? [String] == ["option"])
    #expect(steps[0]["pointer"] as? [Double] == [12.5, 5])
    #expect(steps[1]["pointer"] as? [Double] == [50, 5])
    let calls = try #require(steps[0]["calls"] as? [[String: Any]])
    #expect(calls.map { $0["handler"] as? String } == ["dropEntered", "dropUpdated"])
    #expect(calls.map { $0["printed"] as? [String] } == [["entered a"], ["updated"]])
    let result = try #require(calls[1]["result"] as? [String: Any])
    #expect(result["operation"] as? String == "move" && result["index"] as? Int == 1)
    #expect(calls[1]["error"] as? Bool == false)
    let downgrade = try #require(steps[0]["downgrade"] as? [String: Any])
    #expect(downgrade["from"] as? String == "move" && downgrade["to"] as? String == "copy")
    #expect(downgrade["allowed"] as? [String] == ["copy"])

    let text = try DropRulesBinary.run(["run", path])
    #expect(
      text.stdout.contains(
        """
          dropEntered     a
            print         entered a
          dropUpdated     a  { index = 1, operation = move }
            print         updated

        """))
  }

  @Test("each step names the insertion index a drop there would pass to performDrop")
  func insertionIndexInTrace() throws {
    let path = "rules/contacts/vcard-from-another-app.scenario.json"
    let text = try DropRulesBinary.run(["run", path])
    #expect(text.status == 0)
    #expect(text.stdout.contains("proposal        copy  index 1  over ana (before)\n"))
    #expect(text.stdout.contains("proposal        copy  index 2  over bo (before)\n"))
    let json = try DropRulesBinary.run(["run", "--format", "json", path])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let steps = try #require((document?["scenarios"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
    #expect(steps.map { $0["index"] as? Int } == [nil, 1, 2, nil])
  }

  @Test("a drag out to another app shows the source's limits, the outside steps and dragEnded, in text and JSON")
  func outsideTrace() throws {
    let path = "rules/contacts/move-out-to-contacts-app.scenario.json"
    let text = try DropRulesBinary.run(["run", path])
    #expect(text.status == 0)
    #expect(text.stdout.contains("step 0  begin drag of ana\n  dragOperations  all  { copy, move }\n"))
    #expect(
      text.stdout.contains("step 3  outside, into an app that takes public.vcard as move\n  proposal        move\n"))
    #expect(text.stdout.contains("step 4  drop\n  dragEnded       all\n  outcome         performed\n"))
    let json = try DropRulesBinary.run(["run", "--format", "json", path])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    let steps = try #require((document?["scenarios"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])
    #expect(steps.map { $0["number"] as? Int } == [0, 1, 2, 3, 4])
    let limits = try #require(steps[0]["limits"] as? [[String: Any]])
    #expect(limits.map { $0["source"] as? String } == [nil, "all"])
    #expect(steps[0]["allowed"] as? [String] == ["copy", "move"])
    #expect(steps[1]["over"] as? String == "bo" && steps[1]["edge"] as? String == "center")
  }

  @Test("a drag every source refuses has the outcome refused, and a scenario can expect it")
  func refusedScenario() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("rules.lua", "return { box = { canDrag = function() return false end } }")
    let path = try scratch.write(
      "refused.scenario.json",
      """
      {"rules": ["rules.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10],
        "items": [{"id": "x"}]}]},
       "drag": {"items": ["x"]}, "steps": [{"over": "a"}, "drop"],
       "expect": {"outcome": "refused", "proposals": [], "board": {"a": ["x"]}}}
      """)
    let result = try DropRulesBinary.run(["run", path])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "  canDrag         a  x  false\n  refused         x (canDrag)\n  outcome         refused\n"))
  }

  @Test("a failed expectation exits 1 and says what differed")
  func failedExpectation() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("rules.lua", "return { box = { dropUpdated = function() return 'forbidden' end } }")
    let path = try scratch.write(
      "fail.scenario.json",
      """
      {"rules": ["rules.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x", "representations": [["public.plain-text", "x"]]}]},
       "steps": [{"over": "a"}, "drop"], "expect": {"outcome": "performed"}}
      """)
    let result = try DropRulesBinary.run(["run", path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("expected outcome: expected performed, got cancelled"))
  }

  @Test("a rule error exits 1 and names file, line, handler, target and step")
  func ruleError() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "rules.lua", "return { box = {\n  dropUpdated = function(info, box)\n    return box.data.limit.x\n  end,\n} }\n")
    let path = try scratch.write(
      "error.scenario.json",
      """
      {"rules": ["rules.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "a"}, "drop"]}
      """)
    let result = try DropRulesBinary.run(["run", path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("rules.lua:3: attempt to index a nil value (field 'limit') (in dropUpdated of a, step 1)"))
    #expect(result.stdout.contains("proposal        forbidden"))
  }

  @Test(
    "broken scenarios exit 2 with the JSON path",
    arguments: [
      (
        #"{"board": {"targets": [{"id": "a", "type": "t", "frame": [0, 0]}]}, "drag": {"items": []}}"#,
        "broken.scenario.json:1:58: expected [x, y, width, height], got 2 values (at $.board.targets[0].frame)"
      ),
      (
        #"{"board": {"targets": []}, "drag": {"items": ["ghost"]}}"#,
        "broken.scenario.json:1:47: no item 'ghost' on the board (at $.drag.items[0])"
      ),
      (
        #"{"board": {"targets": [{"id": "a", "type": "t", "frame": [0,0,1,1]}, {"id": "a", "type": "t", "frame": [0,0,1,1]}]}, "drag": {"items": [{"id": "x"}]}}"#,
        "broken.scenario.json:1:77: duplicate target id 'a' (first at board.targets[0]) (at $.board.targets[1].id)"
      ),
      (
        #"{"board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": ["jump"]}"#,
        "broken.scenario.json:1:72: unknown step \"jump\""
      ),
      (
        #"{"rules": ["missing.lua"], "board": {"targets": []}, "drag": {"items": [{"id": "x"}]}}"#,
        "broken.scenario.json:1:12: rule file 'missing.lua' not found"
      ),
      (
        #"{"board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": [{"outside": {"operation": "link"}}]}"#,
        "broken.scenario.json:1:98: unknown operation \"link\"; expected \"copy\" or \"move\" (at $.steps[0].outside.operation)"
      ),
      (
        #"{"board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": [{"outside": {"accepts": []}}]}"#,
        "broken.scenario.json:1:96: name at least one type the app takes (at $.steps[0].outside.accepts)"
      ),
      (
        #"{"board": {"targets": []}, "drag": {"items": [{"id": "x"}]}, "steps": [{"outside": 5}]}"#,
        "broken.scenario.json:1:84: expected {\"accepts\": [types], \"operation\": \"copy\"}, got a number (at $.steps[0].outside)"
      ),
      (#"{"board": {"targets": [], "drag": "#, "not valid JSON"),
      ("\u{0}\u{1}\u{2}binary", "not valid JSON"),
      (
        "{\n  \"board\": {\"targets\": [,]}\n}",
        "broken.scenario.json:2:25: not valid JSON: expected a value, found ','"
      ),
      (
        String(repeating: "[", count: 100_000),
        "broken.scenario.json:1:513: not valid JSON: arrays and objects are nested more than 512 levels deep"
      ),
    ])
  func brokenScenario(json: String, message: String) throws {
    let scratch = try TemporaryDirectory()
    let path = try scratch.write("broken.scenario.json", json)
    let result = try DropRulesBinary.run(["run", path])
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
  }

  @Test("a rule file with a syntax error exits 2 naming file and line")
  func syntaxError() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("rules.lua", "return {\n  box = {\n    performDrop = function( return true end,\n  },\n}\n")
    let path = try scratch.write(
      "s.scenario.json", #"{"rules": ["rules.lua"], "board": {"targets": []}, "drag": {"items": [{"id": "x"}]}}"#)
    let result = try DropRulesBinary.run(["run", path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("rules.lua:3:"))
  }
}
