import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// A shelf of 30-point rows (`a`, holding p1 p2 p3) beside an empty one (`b`), and a
/// third shelf (`c`, holding q1) under them, for drags from two sources.
private func shelves() -> (targets: [DropTarget], items: [DragItem]) {
  var targets = row(["a", "b"], type: "shelf", items: ["a": ["p1", "p2", "p3"]])
  targets.append(DropTarget(id: "c", type: "shelf", frame: Rect(x: 0, y: 200, width: 100, height: 100), items: ["q1"]))
  for index in targets.indices {
    targets[index].axis = .vertical
    targets[index].itemExtent = 30
  }
  return (targets, ["p1", "p2", "p3", "q1"].map(textItem))
}

private func shelfHost(_ rule: String, directory: TemporaryDirectory) throws -> RuleHost {
  let (targets, items) = shelves()
  return try makeHost(rules: "return { shelf = { \(rule) } }", targets: targets, items: items, directory: directory)
}

@Suite("Drag sources: canDrag, dragOperations, dragEnded, drops into other apps")
struct DragSourceTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("dragEnded comes once per source target, after every dropExited, with the outcome")
  func dragEndedOrder() throws {
    let host = try shelfHost(
      """
      dropUpdated = function() return "move" end,
      performDrop = function(info, target) target:insert(info.items, info.index) return true end,
      dropExited = function(info, target) print("exited " .. target.id .. " " .. tostring(info.outcome)) end,
      dragEnded = function(info, source)
        print("ended " .. source.id .. " " .. info.outcome .. " " .. info.operation .. " to " .. info.destination.id)
      end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p1"), .board("q1"), .board("p2")]))
    try host.moveOver("a")
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(
      host.printedLines == [
        "exited a nil", "exited b performed", "ended a performed move to b", "ended c performed move to b",
      ])
    #expect(host.board.items(in: "b") == ["p1", "q1", "p2"])
  }

  @Test("dragEnded changes its own source only: reaching another target is an error, rolled back")
  func dragEndedOwnSourceOnly() throws {
    let host = try shelfHost(
      """
      dragEnded = function(info, source)
        source:set("ended", true)
        local other = info.board:target("c")
        print(pcall(other.set, other, "touched", true))
        other:remove(info.board:item("q1"))
      end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p1")]))
    #expect(try host.cancel() == .cancelled)
    #expect(host.printedLines.first?.contains("dragEnded may change only its own source target 'a', not 'c'") == true)
    #expect(host.board.target("c")?.items == ["q1"])
    #expect(host.board.target("c")?.data["touched"] == nil)
    #expect(host.board.target("a")?.data["ended"] == nil)
    #expect(host.diagnostics.count == 1)
  }

  @Test("a canDrag that raises is asked once per drag: the rest of its items are refused without a call")
  func brokenCanDragIsAskedOnce() throws {
    let host = try shelfHost(
      """
      canDrag = function(item) print("asked " .. item.id) while true do end end,
      """, directory: directory)
    let start = try host.beginDrag(DragRequest(items: [.board("p1"), .board("p2"), .board("p3"), .board("q1")]))
    #expect(start.isRefused)
    #expect(start.refused == ["p1", "p2", "p3", "q1"])
    #expect(host.printedLines == ["asked p1"])
    #expect(host.diagnostics.count == 1)
  }

  @Test("a drop into another app names the items it took in info.taken: those it accepts, no others")
  func takenOutside() throws {
    var (targets, items) = shelves()
    items[1] = DragItem(id: "p2", name: "P2", representations: [Representation(type: "public.image", payload: "x")])
    let host = try makeHost(
      rules: """
        return { shelf = {
          dragEnded = function(info, source)
            local ids = {}
            for _, item in ipairs(info.taken or {}) do ids[#ids + 1] = item.id end
            print(source.id .. " took " .. table.concat(ids, " "))
          end,
        } }
        """, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p1"), .board("p2"), .board("q1")]))
    #expect(try host.moveOutside(accepting: ["public.plain-text"], operation: .move) == .move)
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["a took p1 q1", "c took p1 q1"])
  }

  @Test("the allowed operations are the drag's own intersected with every source's, inside and outside")
  func operationIntersection() throws {
    let host = try shelfHost(
      """
      dragOperations = function(info, source)
        if info.outside then return { "copy" } end
        if source.id == "c" then return { "move", "copy" } end
        return { "move" }
      end,
      performDrop = function() return true end, dropUpdated = function(info) print(info.allowedOperations.move, info.allowedOperations.copy) return "copy" end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p1"), .board("q1")]))
    // Inside: the drag allows both, a allows move, c both: move only, so copy is forbidden.
    #expect(try host.moveOver("b") == .forbidden)
    #expect(host.printedLines == ["true\tnil"])
    // The downgrade names the limit that left copy out: a's dragOperations, not the drag or c.
    #expect(host.trace.last?.downgrade?.limitedBy == [OperationLimit(source: "a", operations: [.move])])
    #expect(
      host.trace.last?.downgrade?.description
        == "copy -> forbidden (only move allowed: source a allows move (dragOperations))")
    let begin = try #require(host.trace.first)
    #expect(begin.number == 0)
    #expect(
      begin.limits == [
        OperationLimit(source: nil, operations: [.copy, .move]), OperationLimit(source: "a", operations: [.move]),
        OperationLimit(source: "c", operations: [.copy, .move]),
      ])
    #expect(begin.allowed == [.move])
    // Outside: every source allows copy only, so a move there is negotiated down to copy.
    #expect(try host.moveOutside(accepting: ["public.text"], operation: .move) == .copy)
    #expect(
      host.trace.last?.downgrade
        == Downgrade(
          from: .move, to: .copy, allowed: [.copy],
          limitedBy: [
            OperationLimit(source: "a", operations: [.copy]), OperationLimit(source: "c", operations: [.copy]),
          ]))
    // Back on the board, the board's operations hold again.
    #expect(try host.moveOver("b") == .forbidden)
    #expect(host.trace.last?.allowed == [.move])
    try host.cancel()

    try host.beginDrag(DragRequest(items: [.board("p1")], allowedOperations: [.copy]))
    #expect(try host.moveOver("b") == .forbidden)
    #expect(host.trace.first?.allowed == [])
  }

  @Test("a refused item stays and is named; when all are refused the drag does not begin")
  func refusedItems() throws {
    let host = try shelfHost(
      """
      canDrag = function(item, source) return item.id ~= "p1" and source.id == item.container.id end,
      dropEntered = function() print("entered") end,
      dropUpdated = function() return "move" end,
      performDrop = function(info, target) target:insert(info.items) return true end,
      dragEnded = function() print("ended") end,
      """, directory: directory)
    let start = try host.beginDrag(DragRequest(items: [.board("p1"), .board("p2")]))
    #expect(start == DragStart(refused: ["p1"], isRefused: false))
    #expect(host.trace.first?.refused == ["p1"])
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "a") == ["p1", "p3"])
    #expect(host.board.items(in: "b") == ["p2"])

    let refused = try host.beginDrag(DragRequest(items: [.board("p1")]))
    #expect(refused == DragStart(refused: ["p1"], isRefused: true))
    #expect(!host.isDragging)
    #expect(host.trace.map(\.outcome) == [.refused])
    #expect(host.callLog == ["canDrag a -> false"])
    #expect(host.printedLines.isEmpty)
    #expect(throws: DragError.noDrag) { try host.moveOver("b") }
  }

  @Test("canDrag and dragOperations only answer: a change there is an error, and the item is refused")
  func sourceQuestionsAreReadOnly() throws {
    let host = try shelfHost(
      """
      canDrag = function(item, source) source:set("touched", true) return true end,
      """, directory: directory)
    let start = try host.beginDrag(DragRequest(items: [.board("p1")]))
    #expect(start.isRefused)
    #expect(host.diagnostics.first?.message.contains("read-only in canDrag") == true)
    #expect(host.diagnostics.first?.description.contains("at drag start") == true)
    #expect(host.board.target("a")?.data["touched"] == nil)
  }

  @Test("dragEnded runs in a transaction of its own: committed on return, rolled back on error")
  func dragEndedTransaction() throws {
    let host = try shelfHost(
      """
      dropUpdated = function() return "forbidden" end,
      dragEnded = function(info, source)
        source:set("ended", info.outcome)
        if source.id == "c" then error("c fails after changing") end
      end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p1"), .board("q1")]))
    try host.moveOver("b")
    #expect(try host.cancel() == .cancelled)
    #expect(host.board.target("a")?.data["ended"] == .string("cancelled"))
    #expect(host.board.target("c")?.data["ended"] == nil)
    #expect(host.diagnostics.map(\.handler) == [.dragEnded])
    #expect(host.diagnostics.first?.message.contains("c fails after changing") == true)
  }

  @Test("a drop into another app performs nothing on the board; a move out is removed by its source")
  func dropOutside() throws {
    let host = try shelfHost(
      """
      dropEntered = function(info, target) target:set("preview", true) end,
      performDrop = function() print("performDrop") return true end,
      dragEnded = function(info, source)
        print(info.outcome, info.operation, info.destination, info.outside)
        if info.outcome == "performed" and info.outside and info.operation == "move" then
          for _, item in ipairs(info.items) do source:remove(item) end
        end
      end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p2")]))
    try host.moveOver("b")
    #expect(try host.moveOutside(accepting: ["public.image"], operation: .copy) == .forbidden)
    #expect(try host.moveOutside(accepting: ["public.text"], operation: .move) == .move)
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["performed\tmove\tnil\ttrue"])
    #expect(host.board.items(in: "a") == ["p1", "p3"])
    #expect(host.board.item("p2") == nil)
    #expect(host.board.target("b")?.data["preview"] == nil)
    #expect(host.trace.last?.calls.map(\.handler) == [.dragEnded])

    // A forbidden app cancels the drop, and nothing is removed.
    try host.beginDrag(DragRequest(items: [.board("p1")]))
    #expect(try host.moveOutside(accepting: ["public.image"]) == .forbidden)
    #expect(try host.drop() == .cancelled)
    #expect(host.board.items(in: "a") == ["p1", "p3"])
  }

  @Test("a rule with only source handlers does not make its targets drop targets")
  func sourceOnlyRule() throws {
    let list = DropTarget(id: "list", type: "list", frame: Rect(x: 0, y: 0, width: 200, height: 200))
    let rowTarget = DropTarget(
      id: "row", type: "row", frame: Rect(x: 0, y: 0, width: 200, height: 40), parent: "list", items: ["x"])
    let host = try makeHost(
      rules: """
        return {
          row = { canDrag = function() return true end },
          list = { performDrop = function() return true end, dropUpdated = function() return "move" end },
        }
        """, targets: [list, rowTarget], items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.movePointer(to: Point(x: 20, y: 20)) == .move)
    #expect(host.trace.last?.target == "list")
  }

  @Test("info.over and info.edge name the item under the pointer and its third, as objects")
  func overAndEdge() throws {
    let host = try shelfHost(
      """
      performDrop = function() return true end, dropUpdated = function(info, target)
        print(info.over and info.over.id, info.edge, info.over == info.board:item(info.over and info.over.id or ""))
        return "move"
      end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("q1")]))
    for y in [0.0, 9.9, 10, 19.9, 20, 29.9, 30, 89.9, 90] { try host.movePointer(to: Point(x: 50, y: y)) }
    #expect(
      host.printedLines == [
        "p1\tbefore\ttrue", "p1\tbefore\ttrue", "p1\tcenter\ttrue", "p1\tcenter\ttrue", "p1\tafter\ttrue",
        "p1\tafter\ttrue", "p2\tbefore\ttrue", "p3\tafter\ttrue", "nil\tnil\ttrue",
      ])
    #expect(host.trace[2].over == "p1" && host.trace[2].edge == .center)
  }

  @Test("the thirds of an item are exact at their boundaries, on both axes, and nothing else is an item")
  func edgeThirds() {
    let frame = Rect(x: 10, y: 100, width: 300, height: 90)
    func hit(_ x: Double, _ y: Double, _ axis: ItemAxis = .vertical) -> String {
      guard
        let hit = DropTarget.itemUnderPointer(
          at: Point(x: x, y: y), in: frame, axis: axis, itemExtent: 30, itemCount: 3)
      else { return "none" }
      return "\(hit.position) \(hit.edge.rawValue)"
    }
    #expect(hit(0, 100) == "1 before")
    #expect(hit(0, 109.999) == "1 before")
    #expect(hit(0, 110) == "1 center")
    #expect(hit(0, 119.999) == "1 center")
    #expect(hit(0, 120) == "1 after")
    #expect(hit(0, 130) == "2 before")
    #expect(hit(0, 189.999) == "3 after")
    #expect(hit(0, 190) == "none")
    #expect(hit(0, 99.999) == "none")
    #expect(hit(0, .nan) == "none")
    #expect(hit(0, .infinity) == "none")
    #expect(hit(20, 0, .horizontal) == "1 center")
    #expect(hit(100, 0, .horizontal) == "none")
  }

  @Test("errors and bad answers from source handlers fail closed, with the file and line")
  func badAnswers() throws {
    let host = try shelfHost(
      """
      canDrag = function(item) if item.id == "p2" then error("no p2") end return true end,
      dragOperations = function() return { "move", "teleport" } end,
      dropUpdated = function() return "copy" end,
      """, directory: directory)
    let start = try host.beginDrag(DragRequest(items: [.board("p1"), .board("p2")]))
    #expect(start.refused == ["p2"])
    #expect(try host.moveOver("b") == .forbidden)
    #expect(host.trace.first?.allowed == [])
    #expect(host.diagnostics.map(\.handler) == [.canDrag, .dragOperations])
    #expect(host.diagnostics.allSatisfy { $0.file?.hasSuffix("rules.lua") == true })
    #expect(host.diagnostics.map(\.line) == [1, 2])
    #expect(host.diagnostics[1].message.contains("unknown operation 'teleport'; expected \"move\" or \"copy\""))
  }

  @Test("a misspelt operation from dragOperations is named, with the nearest one; a wrong shape says what is expected")
  func misspeltOperation() throws {
    let host = try shelfHost(
      """
      dragOperations = function(info, source) if source.id == "a" then return { "mvoe" } end return 42 end,
      performDrop = function() return true end,
      """, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("p1"), .board("q1")]))
    try host.cancel()
    let messages = host.diagnostics.map(\.message)
    #expect(
      messages.contains { $0.hasPrefix("dragOperations returned an unknown operation 'mvoe'; did you mean move?") })
    #expect(messages.contains { $0.hasPrefix("dragOperations returned number; expected a list of operations") })
  }
}
