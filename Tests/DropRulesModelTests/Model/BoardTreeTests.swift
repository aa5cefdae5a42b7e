import Testing

@testable import DropRulesModel

/// Containers that move: an item that stands for a target carries it along, and no
/// change can put a target inside itself.
@Suite("Board trees: items that open targets")
struct BoardTreeTests {
  /// root holds rows for docs and music; docs holds a row for inner; inner holds a file.
  static func outline() throws -> Board {
    let frame = Rect(x: 0, y: 0, width: 10, height: 10)
    return try Board(
      targets: [
        DropTarget(id: "root", type: "folder", frame: frame, items: ["docs-row", "music-row"]),
        DropTarget(id: "docs", type: "folder", frame: frame, items: ["inner-row"]),
        DropTarget(id: "music", type: "folder", frame: frame),
        DropTarget(id: "inner", type: "folder", frame: frame, items: ["file"]),
      ],
      items: [
        DragItem(id: "docs-row", opens: "docs"), DragItem(id: "music-row", opens: "music"),
        DragItem(id: "inner-row", opens: "inner"), DragItem(id: "file"),
      ])
  }

  @Test("a board nests each opened target in its item's container")
  func adoptsParents() throws {
    let board = try Self.outline()
    #expect(board.target("docs")?.parent == "root")
    #expect(board.target("inner")?.parent == "docs")
    #expect(board.target("root")?.parent == nil)
  }

  @Test("a board refuses an unknown opened target, a target opened twice, and a parent that contradicts the row")
  func refusesInconsistentTrees() {
    let frame = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(throws: BoardError.unknownOpenedTarget("row", "nowhere")) {
      try Board(
        targets: [DropTarget(id: "a", type: "t", frame: frame, items: ["row"])],
        items: [DragItem(id: "row", opens: "nowhere")])
    }
    #expect(throws: BoardError.openedTwice("b", "r1", "r2")) {
      try Board(
        targets: [
          DropTarget(id: "a", type: "t", frame: frame, items: ["r1", "r2"]), .init(id: "b", type: "t", frame: frame),
        ],
        items: [DragItem(id: "r1", opens: "b"), DragItem(id: "r2", opens: "b")])
    }
    #expect(throws: BoardError.openerElsewhere("r", "b", parent: "c", container: "a")) {
      try Board(
        targets: [
          DropTarget(id: "a", type: "t", frame: frame, items: ["r"]),
          DropTarget(id: "b", type: "t", frame: frame, parent: "c"), DropTarget(id: "c", type: "t", frame: frame),
        ],
        items: [DragItem(id: "r", opens: "b")])
    }
    // A folder whose row sits in its own contents: a cycle, refused as one.
    #expect(throws: BoardError.parentCycle("a")) {
      try Board(
        targets: [DropTarget(id: "a", type: "t", frame: frame, items: ["r"])], items: [DragItem(id: "r", opens: "a")])
    }
  }

  @Test("moving a row re-parents its target with the subtree; undo puts it back")
  func moveReparents() throws {
    var board = try Self.outline()
    let before = board
    let undo = try board.insert("docs-row", into: "music", at: nil)
    #expect(board.target("docs")?.parent == "music")
    #expect(board.target("inner")?.parent == "docs", "the subtree comes along")
    #expect(board.isWithin(board.position(of: "inner")!, subtreeOf: board.position(of: "music")!))
    board.undo(undo)
    #expect(board == before)
    #expect(board.target("docs")?.parent == "root")
  }

  @Test("a row cannot go into its own target or any target inside it, alone or in a block")
  func refusesContainingItself() throws {
    var board = try Self.outline()
    let before = board
    #expect(throws: BoardError.wouldContainItself("docs-row", "docs", into: "docs")) {
      try board.insert("docs-row", into: "docs", at: nil)
    }
    #expect(throws: BoardError.wouldContainItself("docs-row", "docs", into: "inner")) {
      try board.insert("docs-row", into: "inner", at: 1)
    }
    #expect(throws: BoardError.wouldContainItself("docs-row", "docs", into: "inner")) {
      try board.insert(["file", "docs-row"], into: "inner", at: 1)
    }
    #expect(board == before, "a refused change changes nothing")
  }

  @Test("a removed row leaves its target without a parent; a copy or an external item cannot open one")
  func removeAndDetached() throws {
    var board = try Self.outline()
    let undo = try board.remove("docs-row", from: "root")
    #expect(board.target("docs")?.parent == nil)
    board.undo(undo)
    #expect(board.target("docs")?.parent == "root")
    #expect(throws: BoardError.detachedOpener("copy")) { try board.addDetached(DragItem(id: "copy", opens: "music")) }
  }

  @Test("parent and frame changes move the generations; equality ignores them")
  func generations() throws {
    var board = try Self.outline()
    let tree = board.treeGeneration.value
    let undo = try board.insert("docs-row", into: "music", at: nil)
    #expect(board.treeGeneration.value > tree)
    board.undo(undo)
    #expect(board == (try Self.outline()))
    let frames = board.frameGeneration.value
    try board.setFrame(Rect(x: 5, y: 5, width: 1, height: 1), of: "music")
    #expect(board.frameGeneration.value == frames + 1)
  }
}
