import DropRulesTestSupport
import Foundation
import Testing

@Suite("droprules table and diff")
struct TableDiffCommandTests {
  @Test("table of the bundled kanban strip: every cell, then what is worth a look; JSON and CSV agree on the count")
  func table() throws {
    let arguments = ["table", "rules/kanban", "--scenario", "rules/kanban/reorder-columns.scenario.json"]
    let text = try DropRulesBinary.run(arguments)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.hasPrefix("table rules/kanban/reorder-columns.scenario.json: 324 cells (modifiers read: none)\n"))
    #expect(
      text.stdout.contains(
        "\n  done-header  before 1  move+copy: move performed · move: move performed · copy: forbidden\n"))
    #expect(text.stdout.contains("\nworth a look"))
    let json = try DropRulesBinary.run(arguments + ["--format", "json"])
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(report["cells"] as? Int == 324)
    let csv = try DropRulesBinary.run(arguments + ["--format", "csv"])
    #expect(csv.stdout.split(separator: "\n").count == 325)
    let tooMany = try DropRulesBinary.run(arguments + ["--max-cells", "100"])
    #expect(tooMany.status == 2)
    #expect(tooMany.stderr.contains("more than the limit of 100 (raise it with --max-cells)"))
  }

  @Test("diff of the kanban rules against a copy with one changed proposal prints exactly the changed cells")
  func diff() throws {
    let scratch = try TemporaryDirectory()
    let original = try String(
      contentsOf: DropRulesBinary.packageRoot.appendingPathComponent("rules/kanban/kanban.lua"), encoding: .utf8)
    // One proposal changes: no column may be put first in the strip.
    let anchor = "      return { operation = \"move\", index = info.index }"
    #expect(original.contains(anchor))
    let changed = original.replacingOccurrences(
      of: anchor, with: "      if info.index == 1 then return \"forbidden\" end\n" + anchor)
    try scratch.write("old/kanban.lua", original)
    try scratch.write("new/kanban.lua", changed)
    let scenario = DropRulesBinary.packageRoot.appendingPathComponent("rules/kanban/reorder-columns.scenario.json").path
    // Beside the old rules, which it names; diff puts OLD, then NEW, in their place.
    try scratch.write("old/board.scenario.json", try String(contentsOfFile: scenario, encoding: .utf8))
    let result = try DropRulesBinary.run(
      ["diff", "old/kanban.lua", "new/kanban.lua", "--scenario", "old/board.scenario.json"], in: scratch.url)
    #expect(result.status == 1, "\(result.stderr)")
    // Gap 1 is only "before 1" (a row's first third); each header, with move allowed.
    let expected = ["backlog-header", "todo-header", "done-header"].flatMap { header in
      ["move+copy", "move"].map { operations in
        "  strip · \(header) · before 1 · \(operations) · none: move performed -> forbidden"
      }
    }
    #expect(result.stdout == (["6 of 324 cells changed"] + expected).joined(separator: "\n") + "\n")
    let same = try DropRulesBinary.run(
      ["diff", "old/kanban.lua", "old/kanban.lua", "--scenario", "old/board.scenario.json"], in: scratch.url)
    #expect(same.status == 0)
    #expect(same.stdout == "0 of 324 cells changed\n")
  }

  @Test("table and diff under a rule that loops forever: given up on, cells marked, exit 3; --max-seconds checked")
  func slowRule() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "old/t.lua",
      "return { loop = { dropUpdated = function() return 'copy' end, performDrop = function() return true end } }")
    try scratch.write("new/t.lua", "return { loop = { dropUpdated = function() while true do end end } }")
    for folder in ["old", "new"] {
      try scratch.write(
        "\(folder)/t.scenario.json",
        #"{"name": "t", "rules": ["t.lua"], "board": {"targets": [{"id": "home", "type": "home", "frame": [0, 0, 9, 9], "items": [{"id": "a"}]}, {"id": "loop", "type": "loop", "frame": [20, 0, 9, 9]}]}, "drag": {"items": ["a"]}, "steps": []}"#
      )
    }
    // The budget out of the way: the default deadline of 250 ms stops each call.
    let budget = ["--max-instructions", "1000000000000"]
    let table = try DropRulesBinary.run(
      ["table", "--scenario", "new/t.scenario.json", "--max-seconds", "30"] + budget, in: scratch.url)
    #expect(table.status == 3, "\(table.stderr)")
    #expect(table.stdout.contains("gave up on the rule of loop ("))
    #expect(table.stdout.contains("): 3 of its calls ran out of time"))
    #expect(table.stdout.contains("not computed"))
    let diff = try DropRulesBinary.run(
      ["diff", "old/t.lua", "new/t.lua", "--scenario", "old/t.scenario.json", "--max-seconds", "30"] + budget,
      in: scratch.url)
    #expect(diff.status == 1, "\(diff.stderr)")
    #expect(diff.stdout.contains("cells not compared"))
    #expect(diff.stdout.contains("new: gave up on the rule of loop"))
    for bad in ["0", "86401", "nan", "-1", "99999999999999999999"] {
      let refused = try DropRulesBinary.run(
        ["table", "--scenario", "old/t.scenario.json", "--max-seconds", bad], in: scratch.url)
      #expect(refused.status == 64, "--max-seconds \(bad): \(refused.stdout)")
    }
  }
}
