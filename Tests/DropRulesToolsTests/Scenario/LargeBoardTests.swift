import DropRulesHostTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

/// Boards far larger than any bundled one. Each test once took tens of seconds (or
/// gigabytes) where a cost grew with the square of the size; the checks are functional,
/// the sizes are what would expose a step that is not linear.
@Suite("Large boards load and change in time proportional to their size")
struct LargeBoardTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Scenario JSON text for `count` targets in a grid, each built by `extra` (JSON
  /// members after the frame, such as a parent), with one item in the first target.
  private func scenarioText(targets count: Int, extra: (Int) -> String = { _ in "" }) -> String {
    var text = #"{"rules": ["rules.lua"], "board": {"targets": ["#
    text.reserveCapacity(count * 90)
    for index in 0..<count {
      if index > 0 { text += "," }
      text += #"{"id": "t\#(index)", "type": "box", "frame": [\#(index % 300 * 10), \#(index / 300 * 10), 10, 10]"#
      text += extra(index)
      text += index == 0 ? #", "items": [{"id": "a", "representations": [["public.plain-text", "a"]]}]}"# : "}"
    }
    text += #"]}, "drag": {"items": ["a"]}, "steps": [{"over": "t1"}, "drop"]}"#
    return text
  }

  private func load(_ text: String) throws -> Scenario {
    try directory.write(
      "rules.lua",
      "return { box = { dropUpdated = function() return 'move' end,\n"
        + "performDrop = function(info, box) box:insert(info.items) return true end } }")
    return try ScenarioDecoder.load(path: try directory.write("large.scenario.json", text))
  }

  @Test("a parent chain of 20,000 targets, each the child of the one before, loads and takes a drag")
  func parentChain() throws {
    let scenario = try load(
      scenarioText(targets: 20_000) { index in index > 0 ? #", "parent": "t\#(index - 1)""# : "" })
    #expect(scenario.board.targets.count == 20_000)
    #expect(scenario.board.target("t19999")?.parent == "t19998")
    let result = try ScenarioRunner().run(scenario)
    #expect(result.outcome == .performed)
  }

  @Test("a parent chain declared children first loads too, and a cycle at its end is found")
  func reversedChainAndCycle() throws {
    let count = 20_000
    let targets = (0..<count).reversed().map { index in
      DropTarget(
        id: "t\(index)", type: "box", frame: Rect(x: 0, y: 0, width: 10, height: 10),
        parent: index > 0 ? "t\(index - 1)" : nil)
    }
    let host = try RuleHost()
    try host.replaceBoard(try Board(targets: targets, items: []))
    #expect(host.board.targets.count == count)

    var cyclic = targets
    cyclic[cyclic.count - 1].parent = "t\(count - 1)"  // t0's parent is the deepest target
    #expect(throws: BoardError.self) { try Board(targets: cyclic, items: []) }
  }

  @Test("a scenario of 100,000 targets decodes, loads into a host and replays")
  func hundredThousandTargets() throws {
    let scenario = try load(scenarioText(targets: 100_000))
    #expect(scenario.board.targets.count == 100_000)
    let result = try ScenarioRunner().run(scenario)
    #expect(result.outcome == .performed)
    #expect(result.board.items(in: "t1") == ["a"])
  }

  @Test("20,000 copies of an item, inserted one at a time, then all rolled back")
  func manyCopies() throws {
    let rules = """
      return { box = { performDrop = function(info, target)
        local copies = {}
        for i = 1, 20000 do
          copies[i] = info.items[1]:copy()
          target:insert(copies[i])
        end
        print(#target.items, copies[20000].id)
        return target.data.commit
      end } }
      """
    let targets = [
      DropTarget(id: "from", type: "box", frame: Rect(x: 0, y: 0, width: 10, height: 10), items: ["a"]),
      DropTarget(id: "to", type: "box", frame: Rect(x: 10, y: 0, width: 10, height: 10), data: ["commit": .bool(true)]),
      DropTarget(id: "undo", type: "box", frame: Rect(x: 20, y: 0, width: 10, height: 10)),
    ]
    let host = try makeHost(
      rules: rules, targets: targets, items: [textItem("a")], directory: directory,
      limits: LuaLimits(maxInstructions: 100_000_000, maxTime: .seconds(60)))
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("to")
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["20000\ta-copy20000"])
    #expect(host.board.items(in: "to").count == 20_000)
    #expect(host.board.items(in: "to").last == "a-copy20000")

    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("undo")
    #expect(try host.drop() == .failed)  // performDrop returned nil: every copy rolls back
    #expect(host.board.items(in: "undo").isEmpty)
    #expect(host.board.items(in: "from") == ["a"])
    #expect(host.diagnostics.isEmpty)
  }

  @Test(
    "a drag of 20,000 items from one list of 20,000 begins, asks canDrag of each, and moves them in drag order",
    arguments: [false, true])
  func manyDraggedItems(reversed: Bool) throws {
    let rules = """
      return { box = {
        canDrag = function(item, source) return item.id ~= "i7" end,
        dropUpdated = function() return "move" end,
        performDrop = function(info, target) target:insert(info.items) return true end,
      } }
      """
    let ids = (0..<20_000).map { "i\($0)" }
    let targets = [
      DropTarget(id: "from", type: "box", frame: Rect(x: 0, y: 0, width: 10, height: 10), items: ids),
      DropTarget(id: "to", type: "box", frame: Rect(x: 10, y: 0, width: 10, height: 10)),
    ]
    let host = try makeHost(
      rules: rules, targets: targets, items: ids.map { DragItem(id: $0) }, directory: directory,
      // The default budget: building the drag's info for 20,000 items is host work, and
      // does not count against it (it did, and the drag then failed).
      limits: LuaLimits(maxTime: .seconds(60)))
    let dragged = reversed ? ids.reversed() : ids
    let start = try host.beginDrag(DragRequest(items: dragged.map(DraggedItem.board)))
    #expect(start.refused == ["i7"])
    try host.moveOver("to")
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "from") == ["i7"])
    #expect(host.board.items(in: "to") == dragged.filter { $0 != "i7" })
    #expect(host.diagnostics.isEmpty)
  }
}
