import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// Rules that try to break trees, spring-loading, previews and announcements: each
/// attempt stays a test.
@Suite("Trees and presentation under attack")
struct TreeAttackTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("two moves in one drop that together would make a cycle: the second raises and nothing moves")
  func cycleInTwoMoves() throws {
    let (targets, items) = try TreeTests.outline()
    let host = try makeHost(
      rules: """
        return { folder = {
          dropUpdated = function() return "move" end,
          performDrop = function(info, folder)
            local board = info.board
            -- music under docs, then docs under music: a cycle in two legal-looking steps.
            board:target("docs"):insert(board:item("music-row"))
            board:target("music"):insert(board:item("docs-row"))
            return true
          end,
        } }
        """, targets: targets, items: items, directory: directory)
    let before = host.board
    try host.beginDrag(DragRequest(items: [.board("inner-row")]))
    try host.moveOver("root")
    #expect(try host.drop() == .failed)
    #expect(host.board == before)
    #expect(host.board.target("music")?.parent == "root")
    #expect(host.diagnostics.last?.message.contains("inside itself") == true)
  }

  @Test("a row removed and put back inside its own subtree in the same drop is refused")
  func removeThenReinsert() throws {
    let (targets, items) = try TreeTests.outline()
    let host = try makeHost(
      rules: """
        return { folder = {
          dropUpdated = function() return "move" end,
          performDrop = function(info, folder)
            local row = info.board:item("docs-row")
            info.board:target("root"):remove(row)
            info.board:target("inner"):insert(row)
            return true
          end,
        } }
        """, targets: targets, items: items, directory: directory)
    let before = host.board
    try host.beginDrag(DragRequest(items: [.board("music-row")]))
    try host.moveOver("music")
    #expect(try host.drop() == .failed)
    #expect(host.board == before)
  }

  @Test("open = true with nothing to open, a bogus data.opens, or from another handler opens nothing")
  func bogusSpringLoading() throws {
    var (targets, items) = try TreeTests.outline(collapsedDocs: true)
    targets[2].data["opens"] = .integer(7)
    targets[3].data["opens"] = .string("nowhere")
    let host = try makeHost(
      rules: """
        return { folder = {
          validateDrop = function() return { operation = "move", open = true } end,
          dropUpdated = function(info, folder) return { operation = "move", open = true } end,
          performDrop = function() return { operation = "move", open = true } end,
        } }
        """, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("music-row")]))
    for point in [Point(x: 250, y: 150), Point(x: 50, y: 220), Point(x: 150, y: 280)] {
      try host.movePointer(to: point)
      #expect(host.lastStep?.springLoaded == [], "\(point)")
    }
    try host.movePointer(to: Point(x: 50, y: 150))
    #expect(host.lastStep?.target == "root", "docs stays closed")
    #expect(try host.drop() == .failed, "performDrop's table is not true")
  }

  @Test("open must be true: open = \"yes\", 0 or a table spring-loads nothing")
  func openMustBeTrue() throws {
    for value in ["\"yes\"", "0", "{}", "0/0"] {
      let (targets, items) = try TreeTests.outline(collapsedDocs: true)
      let host = try makeHost(
        rules: """
          return { folder = {
            dropUpdated = function(info, folder) return { operation = "move", open = \(value) } end,
            performDrop = function() return true end,
          } }
          """, targets: targets, items: items, directory: directory)
      try host.beginDrag(DragRequest(items: [.board("music-row")]))
      try host.movePointer(to: Point(x: 50, y: 25))
      #expect(host.lastStep?.over == "docs-row")
      #expect(host.lastStep?.springLoaded == [], "open = \(value)")
      try host.cancel()
    }
  }

  @Test("a dragPreview of a cyclic table or megabytes, and an announce that never returns, cost a bounded call")
  func hostilePresentation() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dragPreview = function(items)
            local t = { title = string.rep("x", 4000000), subtitle = items[1].name }
            t.badge = t
            return t
          end,
          dropUpdated = function() return "move" end,
          performDrop = function(info, box) box:insert(info.items) return true end,
          announce = function(event) while true do end end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory,
      limits: LuaLimits(maxInstructions: 100_000))
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(host.lastStep?.preview == DragPreview(title: "X"), "a table badge is refused: the default stands")
    try host.moveOver("b")
    #expect(host.lastStep?.announcement == "Over b: move.")
    #expect(host.diagnostics.contains { $0.handler == .announce && $0.message.contains("instruction budget") })
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "b") == ["x"])
  }

  @Test("a board whose row sits inside its own folder, or two rows for one folder, does not load")
  func hostileBoards() throws {
    let frame = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(throws: BoardError.self) {
      try Board(
        targets: [
          DropTarget(id: "a", type: "t", frame: frame, items: ["b-row"]),
          DropTarget(id: "b", type: "t", frame: frame, items: ["a-row"]),
        ],
        items: [DragItem(id: "a-row", opens: "a"), DragItem(id: "b-row", opens: "b")])
    }
  }
}
