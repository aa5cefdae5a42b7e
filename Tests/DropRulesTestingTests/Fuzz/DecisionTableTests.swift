import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesTesting
@testable import DropRulesTools

/// `droprules table`: the decision space of a rule set, evaluated without committing.
@Suite("Decision tables")
struct DecisionTableTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func table(rules: String, targets: String, maxCells: Int = 20_000) throws -> DecisionTable {
    try directory.write("t.lua", rules)
    let path = try directory.write(
      "t.scenario.json",
      #"{"name": "t", "rules": ["t.lua"], "board": {"targets": \#(targets)}, "drag": {"items": ["a"]}, "steps": []}"#)
    var builder = DecisionTableBuilder(
      scenario: try ScenarioDecoder.load(path: path), runner: ScenarioRunner(), extraRules: [])
    builder.maximumCells = maxCells
    return try builder.build()
  }

  static let targets = """
    [{"id": "list", "type": "list", "frame": [0, 0, 100, 120], "itemExtent": 40,
      "items": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]},
     {"id": "wall", "type": "wall", "frame": [200, 0, 100, 100]},
     {"id": "broken", "type": "broken", "frame": [400, 0, 100, 100]}]
    """

  static let rules = """
    return {
      list = {
        dropUpdated = function(info, list)
          -- A drop counter: were a cell's drop kept, the next cells would see it.
          if (list.data.drops or 0) > 0 then return "forbidden" end
          if info.modifiers.option then return "copy" end
          return { operation = "move", index = info.index }
        end,
        performDrop = function(info, list)
          list:set("drops", (list.data.drops or 0) + 1)
          if info.operation == "copy" then
            local copies = {}
            for i, item in ipairs(info.items) do copies[i] = item.container and item:copy() or item end
            list:insert(copies, info.index)
          else
            list:insert(info.items, info.index)
          end
          return true
        end,
      },
      wall = { dropUpdated = function() return "forbidden" end, performDrop = function() return true end },
      broken = { dropUpdated = function() return "move" end, performDrop = function() return false end },
    }
    """

  @Test("each target, thing, operation set, position and read modifier gets a cell; nothing is committed")
  func cells() throws {
    let table = try table(rules: Self.rules, targets: Self.targets)
    // list: before/into/after of 2 rows and the end (7); wall and broken: whole (1 each).
    // Dragged: a, b and the snippet (3); operation sets 3; modifiers: none and option.
    #expect(table.modifiersRead == [.option])
    #expect(table.rows.count == 9 * 3 * 3 * 2)
    let listCells = table.rows.filter {
      $0.cell.target == "list" && $0.cell.modifiers.isEmpty && $0.cell.dragged == "a"
    }
    #expect(
      Set(listCells.map(\.cell.position)) == [.before(1), .into(1), .after(1), .before(2), .into(2), .after(2), .end])
    // No drop was kept: every default-operations cell without modifiers proposes move.
    #expect(listCells.filter { $0.cell.operations == [.move, .copy] }.allSatisfy { $0.decision.proposal == .move })
    let copyOnly = try #require(listCells.first { $0.cell.operations == [.copy] && $0.cell.position == .end })
    #expect(copyOnly.decision.proposal == .copy, "move negotiated to copy")
    #expect(copyOnly.decision.outcome == .performed, "the rule inserts copies under a copy")
    let option = try #require(
      table.rows.first { $0.cell.target == "list" && $0.cell.modifiers == [.option] && $0.cell.operations == [.move] })
    #expect(option.decision.proposal == .forbidden, "copy where only move is allowed")
  }

  @Test("what is worth a look: a target that forbids everything, a drop shown then failed, a type that decides one way")
  func findings() throws {
    let findings = try table(rules: Self.rules, targets: Self.targets).findings
    #expect(findings.contains { $0.hasPrefix("wall forbids everything") }, "\(findings)")
    #expect(findings.contains { $0.contains("propose an operation that the drop then fails") && $0.contains("broken") })
    #expect(findings.contains { $0.hasPrefix("every decision of wall is forbidden") })
  }

  @Test("a space over the limit is refused, naming its size")
  func limit() throws {
    #expect(throws: DecisionTableBuilder.TooManyCells.self) {
      try table(rules: Self.rules, targets: Self.targets, maxCells: 100)
    }
  }

  @Test("a drop that would put a container inside itself is named")
  func containsItself() throws {
    let findings = try table(
      rules: """
        return { folder = {
          dropUpdated = function() return "move" end,
          performDrop = function(info, folder) folder:insert(info.items) return true end,
        } }
        """,
      targets: """
        [{"id": "root", "type": "folder", "frame": [0, 0, 100, 100], "items": [{"id": "a", "opens": "docs"}]},
         {"id": "docs", "type": "folder", "frame": [200, 0, 100, 100]}]
        """
    ).findings
    #expect(
      findings.contains { $0.contains("would put a container inside itself") && $0.contains("docs · a") }, "\(findings)"
    )
  }

  @Test("text, CSV and HTML keep hostile names as text")
  func formats() throws {
    let table = try table(rules: Self.rules, targets: Self.targets)
    #expect(table.csv.split(separator: "\n").count == table.rows.count + 1)
    #expect(DecisionTable.csvField("a,\"b\"") == "\"a,\"\"b\"\"\"")
    let html = table.html(scenario: "<script>")
    #expect(!html.contains("<script>") && html.contains("&lt;script&gt;"))
    #expect(table.text(scenario: "t").contains("wall (wall)\n  a  whole  all: forbidden"))
  }
}
