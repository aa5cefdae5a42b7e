import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

@Suite("Every dragged item stays on the board exactly once")
struct DragInvariantTests {
  /// Rules that move, copy, preview, fail and raise at random (seeded, so runs repeat).
  static let chaoticRule = """
    return { ["*"] = {
      validateDrop = function() return math.random() < 0.8 end,
      dropEntered = function(info, target)
        if math.random() < 0.5 then target:insert(info.items[1], math.random(1, 4)) end
        if math.random() < 0.1 then error("entered failed") end
      end,
      dropUpdated = function()
        local r = math.random()
        if r < 0.1 then error("updated failed") end
        return ({ "move", "copy", "forbidden", "cancel" })[math.random(1, 4)]
      end,
      performDrop = function(info, target)
        for _, item in ipairs(info.items) do
          target:insert(info.operation == "copy" and item:copy() or item, math.random(0, 5))
          if math.random() < 0.2 then error("perform failed") end
        end
        return math.random() < 0.7
      end,
    } }
    """

  @Test("over 300 random drags")
  func randomDrags() throws {
    let directory = try TemporaryDirectory()
    let ids = (1...6).map { "item\($0)" }
    let targets = row(["a", "b", "c", "d"], items: ["a": Array(ids[0..<3]), "c": Array(ids[3...])])
    let host = try makeHost(rules: Self.chaoticRule, targets: targets, items: ids.map(textItem), directory: directory)
    var generator = SeededRandom(seed: 42)
    for _ in 0..<300 {
      let dragged = ids.filter { _ in generator.next() % 3 == 0 }
      guard !dragged.isEmpty else { continue }
      try host.beginDrag(DragRequest(items: dragged.map { .board($0) }))
      for _ in 0..<Int(generator.next() % 5) {
        let point = Point(x: Double(generator.next() % 450), y: Double(generator.next() % 120))
        try host.movePointer(to: point)
      }
      if generator.next() % 4 == 0 { try host.cancel() } else { try host.drop() }
      let placed = host.board.placedItems
      for id in ids { #expect(placed.filter { $0 == id }.count == 1, "item \(id) after drag") }
      #expect(Set(placed).count == placed.count)
      #expect(host.files.states.allSatisfy { $0.runtime.stackDepth == 0 })
    }
  }
}
