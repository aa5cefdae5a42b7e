import Testing

@testable import DropRulesModel

@Suite("Board insertion gaps")
struct BoardGapTests {
  private func board(_ ids: [String]) throws -> Board {
    try Board(
      targets: [
        DropTarget(id: "list", type: "list", frame: Rect(x: 0, y: 0, width: 100, height: 100), items: ids),
        DropTarget(id: "other", type: "list", frame: Rect(x: 100, y: 0, width: 100, height: 100)),
      ],
      items: ids.map { DragItem(id: $0) })
  }

  @Test(
    "moving within one list uses gaps of the list as it is now",
    arguments: [
      ("a", 4, ["b", "c", "a"]),  // down to the end
      ("a", 3, ["b", "a", "c"]),  // down one place: the seed's off-by-one case
      ("c", 1, ["c", "a", "b"]),  // up to the front
      ("b", 2, ["a", "b", "c"]),  // the gap before itself
      ("b", 3, ["a", "b", "c"]),  // the gap after itself
      ("a", 99, ["b", "c", "a"]),  // clamped high
      ("c", -5, ["c", "a", "b"]),  // clamped low
    ])
  func reorder(item: String, gap: Int, expected: [String]) throws {
    var board = try board(["a", "b", "c"])
    try board.insert(item, into: "list", at: gap)
    #expect(board.items(in: "list") == expected)
  }

  @Test("nil appends, and moving to another list removes from the first")
  func appendAcrossLists() throws {
    var board = try board(["a", "b"])
    try board.insert("a", into: "other", at: nil)
    try board.insert("b", into: "other", at: nil)
    #expect(board.items(in: "list").isEmpty)
    #expect(board.items(in: "other") == ["a", "b"])
    #expect(board.place(of: "b")?.index == 2)
  }

  @Test("a list of items goes in together, in the order given, from the gap on")
  func insertList() throws {
    var board = try board(["a", "b", "c", "d"])
    try board.insert(["d", "a"], into: "list", at: 3)
    #expect(board.items(in: "list") == ["b", "d", "a", "c"])
    try board.insert(["c", "b"], into: "other", at: 1)
    #expect(board.items(in: "other") == ["c", "b"])
    #expect(board.items(in: "list") == ["d", "a"])
  }

  @Test("a detached item joins the board once inserted; pruning forgets the rest")
  func detachedItems() throws {
    var board = try board(["a"])
    var changes = try board.addDetached(DragItem(id: "x"))
    changes += try board.addDetached(DragItem(id: "y"))
    changes += try board.insert("x", into: "list", at: 1)
    board.pruneDetached(among: changes)
    #expect(board.items(in: "list") == ["x", "a"])
    #expect(board.item("y") == nil)
  }

  @Test("bad boards are refused with a reason")
  func invalidBoards() {
    let frame = Rect(x: 0, y: 0, width: 1, height: 1)
    #expect(throws: BoardError.duplicateTarget("t")) {
      try Board(
        targets: [DropTarget(id: "t", type: "x", frame: frame), DropTarget(id: "t", type: "x", frame: frame)], items: []
      )
    }
    #expect(throws: BoardError.unknownParent("t", "nope")) {
      try Board(targets: [DropTarget(id: "t", type: "x", frame: frame, parent: "nope")], items: [])
    }
    #expect(throws: BoardError.itemInTwoPlaces("i", "a", "b")) {
      try Board(
        targets: [
          DropTarget(id: "a", type: "x", frame: frame, items: ["i"]),
          DropTarget(id: "b", type: "x", frame: frame, items: ["i"]),
        ], items: [DragItem(id: "i")])
    }
  }

  @Test("the insertion index follows the pointer along the axis")
  func insertionIndex() {
    let target = DropTarget(
      id: "t", type: "x", frame: Rect(x: 0, y: 100, width: 50, height: 300), items: ["a", "b", "c"], axis: .vertical,
      itemExtent: 100)
    #expect(target.insertionIndex(at: Point(x: 10, y: 110)) == 1)
    #expect(target.insertionIndex(at: Point(x: 10, y: 160)) == 2)
    #expect(target.insertionIndex(at: Point(x: 10, y: 390)) == 4)
    #expect(target.insertionIndex(at: Point(x: 10, y: 9000)) == 4)
  }

  @Test("an offset that overflows to infinity on a tiny item extent is the last gap, not the first")
  func overflowingOffset() {
    let frame = Rect(x: 0, y: 0, width: 100, height: 100)
    #expect(
      DropTarget.insertionIndex(
        at: Point(x: 1, y: 50), in: frame, axis: nil, itemExtent: .leastNonzeroMagnitude, itemCount: 2) == 3)
    #expect(
      DropTarget.insertionIndex(
        at: Point(x: 1, y: -50), in: frame, axis: nil, itemExtent: .leastNonzeroMagnitude, itemCount: 2) == 1)
  }

  @Test("any number is an index: huge, infinite and NaN ones clamp or read as 0, and never trap")
  func indexFromAnyNumber() {
    #expect(Board.index(Int64.min) == -1_000_000_000_000_000)
    #expect(Board.index(Int64.max) == 1_000_000_000_000_000)
    #expect(Board.index(-Double.infinity) == -1_000_000_000_000_000)
    #expect(Board.index(Double.infinity) == 1_000_000_000_000_000)
    #expect(Board.index(Double.nan) == 0)
    #expect(Board.index(2.7) == 2 && Board.index(-2.5) == -3)
  }
}
