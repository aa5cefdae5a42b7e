import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesTesting
@testable import DropRulesTools

/// `droprules table` under rules that spend their deadline: a rule that looped forever on
/// every call cost each cell its deadline (a 36-cell table took 45 s; 20,000 cells would
/// take 83 minutes). The table gives up on a rule after 3 of its calls ran out of time,
/// and stops at `maximumSeconds`, marking the cells it did not compute.
@Suite("Decision tables under slow rules")
struct DecisionTableTimeTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A budget no loop here reaches within the deadline: the deadline (250 ms, the
  /// default) stops them, as it stops a rule of slow instructions under any budget.
  static let limits = LuaLimits(maxInstructions: 1_000_000_000_000)

  func builder(rules: String, targets: String, limits: LuaLimits = DecisionTableTimeTests.limits) throws
    -> DecisionTableBuilder
  {
    try directory.write("t.lua", rules)
    let path = try directory.write(
      "t.scenario.json",
      #"{"name": "t", "rules": ["t.lua"], "board": {"targets": \#(targets)}, "drag": {"items": ["a"]}, "steps": []}"#)
    // The default limits: a handler call's deadline is 250 ms.
    return DecisionTableBuilder(
      scenario: try ScenarioDecoder.load(path: path), runner: ScenarioRunner(limits: limits), extraRules: [])
  }

  static let targets = """
    [{"id": "home", "type": "wall", "frame": [0, 0, 100, 100], "items": [{"id": "a"}, {"id": "b"}]},
     {"id": "loop", "type": "loop", "frame": [200, 0, 100, 100]},
     {"id": "wall", "type": "wall", "frame": [400, 0, 100, 100]}]
    """

  static let rules = """
    return {
      loop = { dropUpdated = function() while true do end end },
      wall = { dropUpdated = function() return "forbidden" end },
    }
    """

  @Test("a rule that loops forever is given up on after 3 calls: its later cells are marked, the others computed")
  func givesUp() throws {
    let started = ContinuousClock.now
    let table = try builder(rules: Self.rules, targets: Self.targets).build()
    let elapsed = ContinuousClock.now - started
    #expect(table.givenUp.map(\.rule) == ["loop"])
    #expect(!table.stoppedAtTimeLimit)
    let loop = table.rows.filter { $0.cell.target == "loop" }
    // 3 cells of 250 ms, then none: without giving up, 9 cells of each of 5 passes.
    #expect(loop.filter { $0.decision.notComputed == nil }.count == 3)
    #expect(loop.dropFirst(3).allSatisfy { $0.decision.notComputed?.contains("gave up on the rule of loop") == true })
    #expect(table.rows.filter { $0.cell.target != "loop" }.allSatisfy { $0.decision.notComputed == nil })
    #expect(elapsed < .seconds(8), "\(elapsed)")
    let text = table.text(scenario: "t")
    #expect(text.contains("gave up on the rule of loop ("))
    #expect(text.contains("cells not computed"))
    #expect(text.contains("\n  b  whole  all: not computed\n"))
    #expect(table.json(scenario: "t").objectValue?["givenUp"]?.arrayValue?.count == 1)
    // Cells not computed make no finding: "no drag reaches loop" would be a guess.
    #expect(!table.findings.contains { $0.hasPrefix("no drag reaches loop") })
  }

  @Test("under the default limits, a rule of slow instructions (comparing strings of NUL bytes) is given up on")
  func slowInstructions() throws {
    // One comparison of two 8 MiB strings of NUL bytes takes milliseconds (Lua compares
    // them piece by piece), so the deadline, not the budget, stops the loop.
    let rules = """
      local a, b = string.rep("\\0", 1 << 23), string.rep("\\0", 1 << 23) .. "x"
      return {
        loop = { dropUpdated = function() while true do local _ = a < b end end },
        wall = { dropUpdated = function() return "forbidden" end },
      }
      """
    let table = try builder(rules: rules, targets: Self.targets, limits: LuaLimits()).build()
    #expect(table.givenUp.map(\.rule) == ["loop"])
  }

  @Test("a source whose canDrag loops forever is given up on: cells dragging its items are marked")
  func givesUpOnSource() throws {
    let rules = """
      return {
        home = { canDrag = function() while true do end end, dropUpdated = function() return "forbidden" end },
        wall = { dropUpdated = function() return "forbidden" end },
      }
      """
    let targets = Self.targets.replacingOccurrences(
      of: #""type": "wall", "frame": [0"#, with: #""type": "home", "frame": [0"#)
    let table = try builder(rules: rules, targets: targets).build()
    #expect(table.givenUp.map(\.rule) == ["home"])
    let snippets = table.rows.filter { $0.cell.dragged == "snippet" && $0.cell.target != "home" }
    #expect(snippets.allSatisfy { $0.decision.notComputed == nil })
    #expect(table.rows.filter { $0.cell.dragged == "a" }.dropFirst(3).allSatisfy { $0.decision.notComputed != nil })
  }

  @Test("a rule that times out only every other call is given up on at its third time-out, not before")
  func sometimes() throws {
    let rules = """
      local calls = 0
      return {
        loop = { dropUpdated = function()
          calls = calls + 1
          if calls % 2 == 0 then while true do end end
          return "move"
        end, performDrop = function() return true end },
        wall = { dropUpdated = function() return "forbidden" end },
      }
      """
    let table = try builder(rules: rules, targets: Self.targets).build()
    #expect(table.givenUp.map(\.rule) == ["loop"])
    let loop = table.rows.filter { $0.cell.target == "loop" }
    // Its cells are computed until the third call that ran out of time, some of them
    // answered (the drop may call dropUpdated again: which calls loop varies by cell).
    let computed = loop.prefix { $0.decision.notComputed == nil }
    #expect(computed.filter { $0.decision.reason?.contains("time limit of 250 ms") == true }.count == 3)
    #expect(computed.count > 3 && computed.count < loop.count)
    #expect(computed.contains { $0.decision.description == "move performed" })
  }

  @Test("the time limit stops the table: the cells left are marked, and it says so")
  func timeLimit() throws {
    // Ten rules that each loop forever: giving up on each costs 3 deadlines, 7.5 s in all.
    let rules = """
      local rules = {}
      for i = 1, 10 do rules["t" .. i] = { dropUpdated = function() while true do end end } end
      return rules
      """
    let targets =
      #"[{"id": "home", "type": "home", "frame": [0, 0, 100, 100], "items": [{"id": "a"}]},"#
      + (1...10).map { #"{"id": "t\#($0)", "type": "t\#($0)", "frame": [\#($0 * 100), 0, 100, 100]}"# }
      .joined(separator: ",") + "]"
    var builder = try builder(rules: rules, targets: targets)
    builder.maximumSeconds = 1
    let started = ContinuousClock.now
    let table = try builder.build()
    let elapsed = ContinuousClock.now - started
    #expect(table.stoppedAtTimeLimit)
    // A cell that began runs to its end: one deadline past the limit, and a margin.
    #expect(elapsed < .seconds(3), "\(elapsed)")
    #expect(table.cellsNotComputed > 0 && table.cellsNotComputed < table.rows.count)
    #expect(table.rows.last?.decision.notComputed == "stopped at the time limit (--max-seconds)")
    #expect(table.text(scenario: "t").contains("stopped at the time limit (--max-seconds)"))
    #expect(table.json(scenario: "t").objectValue?["stoppedAtTimeLimit"] == .bool(true))
    #expect(table.csv.contains(",not computed,stopped at the time limit"))
  }

  @Test("odd limits through the API: NaN and 0 compute no cell, infinity and huge ones every cell")
  func oddLimits() throws {
    let rules = "return { wall = { dropUpdated = function() return 'forbidden' end } }"
    for (limit, computesAll) in [(Double.nan, false), (0, false), (-1, false), (.infinity, true), (1e300, true)] {
      var builder = try builder(rules: rules, targets: Self.targets)
      builder.maximumSeconds = limit
      let table = try builder.build()
      #expect(table.stoppedAtTimeLimit == !computesAll, "\(limit)")
      #expect(table.cellsNotComputed == (computesAll ? 0 : table.rows.count), "\(limit)")
    }
  }

  @Test("diff leaves out cells either version did not compute, and counts them")
  func diff() throws {
    let slow = try builder(rules: Self.rules, targets: Self.targets).build()
    let plain = try builder(
      rules: Self.rules.replacingOccurrences(of: "while true do end", with: "return 'move'"), targets: Self.targets
    ).build()
    let diff = DecisionTableDiff(old: plain, new: slow)
    #expect(diff.notCompared == slow.cellsNotComputed)
    #expect(diff.changes.allSatisfy { $0.new.notComputed == nil })
    #expect(diff.text.contains("\(slow.cellsNotComputed) cells not compared"))
  }
}
