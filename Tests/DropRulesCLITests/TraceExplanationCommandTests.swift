import DropRulesTestSupport
import Foundation
import Testing

/// `run` says why: targets passed over, what limited a downgrade, why a drop failed;
/// `check` warns about a drop rule that can never perform a drop.
@Suite("droprules run and check explain themselves")
struct TraceExplanationCommandTests {
  /// The column proposes move but its performDrop refuses; the slot in it refuses; the
  /// shelf the card comes from allows copy only.
  static func scenario() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "a.lua",
      """
      return {
        shelf = { dragOperations = function() return { "copy" } end },
        column = { dropUpdated = function() return "move" end, performDrop = function() return false end },
        slot = { validateDrop = function() return false end, performDrop = function() return true end },
      }
      """)
    try scratch.write(
      "s.scenario.json",
      """
      {"name": "explain", "rules": ["a.lua"],
       "board": {"targets": [
         {"id": "shelf", "type": "shelf", "frame": [0, 0, 100, 100], "items": [{"id": "card"}]},
         {"id": "column", "type": "column", "frame": [200, 0, 200, 400], "parent": null},
         {"id": "slot", "type": "slot", "frame": [200, 0, 100, 100], "parent": "column"}]},
       "drag": {"items": ["card"]},
       "steps": [{"at": [250, 50]}, {"at": [250, 60]}, "drop"]}
      """)
    return scratch
  }

  @Test("the text trace names each skipped target, the limit behind a downgrade and why the drop failed")
  func text() throws {
    let scratch = try Self.scenario()
    let result = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        scenario explain  (s.scenario.json)
        rules    ./a.lua

        step 0  begin drag of card
          dragOperations  shelf  { copy }
          preview         card
          limit           the drag allows copy, move
          limit           source shelf allows copy (dragOperations)
          allowed         copy
          says            Picked up card.

        step 1  at (250, 50)
          validateDrop    slot  false
          dropUpdated     column  move
          skipped         slot  validateDrop returned false
          negotiated      move -> copy (only copy allowed: source shelf allows copy (dragOperations))
          proposal        copy
          says            Over column: copy.

        step 2  at (250, 60)
          dropUpdated     column  move
          skipped         slot  validateDrop returned false at step 1; it is asked again once the pointer leaves it
          negotiated      move -> copy (only copy allowed: source shelf allows copy (dragOperations))
          proposal        copy
          says            Over column: copy.

        step 3  drop
          performDrop     column  false
          outcome         failed  (performDrop of column returned false)
          says            Not dropped: column did not take it.

        board
          shelf   card
          column  (empty)
          slot    (empty)

        outcome failed (performDrop of column returned false), 0 errors

        """)
  }

  @Test("the JSON trace carries skips, downgrade limits and the outcome's reason as data")
  func json() throws {
    let scratch = try Self.scenario()
    let result = try DropRulesBinary.run(["run", "--format", "json", "s.scenario.json"], in: scratch.url)
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let scenario = try #require((document?["scenarios"] as? [[String: Any]])?.first)
    let steps = try #require(scenario["steps"] as? [[String: Any]])
    #expect(steps.map { $0["number"] as? Int } == [0, 1, 2, 3])
    let first = try #require(steps[1]["skipped"] as? [[String: Any]])
    #expect(first.count == 1)
    #expect(first.first?["target"] as? String == "slot")
    #expect(first.first?["reason"] as? String == "validateDrop")
    #expect(first.first?["detail"] as? String == "validateDrop returned false")
    #expect(first.first?["step"] as? Int == 1)
    #expect(first.first?["raised"] as? Bool == false)
    let second = try #require(steps[2]["skipped"] as? [[String: Any]])
    #expect(second.first?["reason"] as? String == "refusedEarlier")
    #expect(second.first?["step"] as? Int == 1)
    // The downgrade keeps its fields and names the source that left move out.
    let downgrade = try #require(steps[1]["downgrade"] as? [String: Any])
    #expect(downgrade["from"] as? String == "move")
    #expect(downgrade["to"] as? String == "copy")
    #expect(downgrade["allowed"] as? [String] == ["copy"])
    #expect(downgrade["limitedBy"] as? [String] == ["shelf"])
    // Every step has the new keys, empty or null where they do not apply.
    #expect(steps.allSatisfy { $0["skipped"] is [Any] && $0.keys.contains("outcomeReason") })
    let reason = try #require(steps[3]["outcomeReason"] as? [String: Any])
    #expect(reason["kind"] as? String == "performDropReturned")
    #expect(reason["target"] as? String == "column")
    #expect(reason["detail"] as? String == "performDrop of column returned false")
    #expect((scenario["outcomeReason"] as? [String: Any])?["kind"] as? String == "performDropReturned")
  }

  @Test("a limit from the drag itself is null in limitedBy")
  func dragLimit() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "b.lua",
      "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }")
    try scratch.write(
      "s.scenario.json",
      """
      {"rules": ["b.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x"}], "allowedOperations": ["copy"]}, "steps": [{"at": [1, 1]}]}
      """)
    let result = try DropRulesBinary.run(["run", "--format", "json", "s.scenario.json"], in: scratch.url)
    let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let scenario = try #require((document?["scenarios"] as? [[String: Any]])?.first)
    let steps = try #require(scenario["steps"] as? [[String: Any]])
    let downgrade = try #require(steps.first?["downgrade"] as? [String: Any])
    let limitedBy = try #require(downgrade["limitedBy"] as? [Any])
    #expect(limitedBy.count == 1)
    #expect(limitedBy.first is NSNull)
    // The scenario ends without a drop: cancelled after its last step, which needs no reason.
    #expect(scenario["outcome"] as? String == "cancelled")
    #expect(scenario["outcomeReason"] is NSNull)
  }

  @Test("check warns about a drop rule without performDrop, and only about those")
  func checkWarnsMissingPerformDrop() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "rules.lua",
      """
      return {
        hover = {
          dropEntered = function() end,
          dropExited = function() end,
        },
        picky = { accepts = { "public.text" } },
        fine = { validateDrop = function() return true end, performDrop = function() return true end },
        source = { canDrag = function() return true end },
        defaults = {},
      }
      """)
    let result = try DropRulesBinary.run(["check", "rules.lua"], in: scratch.url)
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        rules.lua:2: the rule for 'hover' has dropEntered, dropExited but no performDrop, so its targets forbid \
        every drop; add performDrop (return true to commit the drop)
        rules.lua:6: the rule for 'picky' has accepts but no performDrop, so its targets forbid every drop; add \
        performDrop (return true to commit the drop)
        rules.lua:9: the rule for 'defaults' is empty, so its targets forbid every drop; add performDrop (return \
        true to commit the drop)
        3 problems in 1 rule file

        """)
    // The file still loads for run: a warning is no load error.
    try scratch.write(
      "s.scenario.json",
      #"{"rules": ["rules.lua"], "board": {"targets": [{"id": "a", "type": "hover", "frame": [0, 0, 10, 10]}]},"#
        + #" "drag": {"items": [{"id": "x"}]}, "steps": [{"at": [1, 1]}, "drop"]}"#)
    let run = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    #expect(run.status == 0, "\(run.stderr)")
    // The proposal says so before the drop: forbidden, not a copy badge that fails.
    #expect(
      run.stdout.contains(
        "negotiated      copy -> forbidden (the rule for 'hover' has no performDrop, so no drop here can be performed)\n"
          + "  proposal        forbidden\n"))
    #expect(run.stdout.hasSuffix("outcome cancelled (the rule for 'hover' (target a) has no performDrop), 0 errors\n"))
  }

  @Test("ids and types in skipped rows stay on their line, escaped")
  func hostileNames() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "s.scenario.json",
      #"{"board": {"targets": [{"id": "a\nstep 9  forged", "type": "t\u001b[2J", "frame": [0, 0, 10, 10]}]},"#
        + #" "drag": {"items": [{"id": "x"}]}, "steps": [{"at": [1, 1]}, "drop"]}"#)
    let result = try DropRulesBinary.run(["run", "s.scenario.json"], in: scratch.url)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(#"  skipped         a\nstep 9  forged  no rule for its type 't\u{1B}[2J'"#), "\(result.stdout)")
    #expect(!lines.contains { $0.hasPrefix("step 9") })
    #expect(lines.last == "outcome cancelled (no target under the pointer takes the drop), 0 errors")
  }
}
