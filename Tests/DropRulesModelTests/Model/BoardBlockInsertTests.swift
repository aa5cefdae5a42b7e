import Testing

@testable import DropRulesModel

@Suite("Inserting a list of items: one block, as if inserted one at a time")
struct BoardBlockInsertTests {
  /// Three lists and two detached items, the items spread by `seed`.
  private func board(seed: inout UInt64) throws -> Board {
    let ids = (0..<9).map { "i\($0)" }
    var lists: [[ItemID]] = [[], [], []]
    for id in ids.prefix(7) { lists[Int(next(&seed) % 3)].append(id) }
    var board = try Board(
      targets: lists.enumerated().map { offset, items in
        DropTarget(
          id: "t\(offset)", type: "list", frame: Rect(x: Double(offset) * 10, y: 0, width: 10, height: 10), items: items
        )
      },
      items: ids.prefix(7).map { DragItem(id: $0) })
    for id in ids.suffix(2) { try board.addDetached(DragItem(id: id)) }
    return board
  }

  /// A small linear congruential generator: the same cases on every run.
  private func next(_ state: inout UInt64) -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }

  @Test("the block lands where inserting one item after another would put it, and undo restores the board")
  func sameAsOneAtATime() throws {
    var seed: UInt64 = 12_345
    for _ in 0..<3_000 {
      let original = try board(seed: &seed)
      let count = 2 + Int(next(&seed) % 5)
      let items = (0..<count).map { _ in "i\(next(&seed) % 9)" }  // repeats are allowed
      let target = "t\(next(&seed) % 3)"
      let gaps: [Int?] = [nil, 0, 1, 2, 3, 4, 5, 6, 9, -3]
      let gap = gaps[Int(next(&seed) % UInt64(gaps.count))]

      var expected = original
      var nextGap = gap
      for item in items {
        try expected.insert(item, into: target, at: nextGap)
        nextGap = expected.place(of: item).map { $0.index + 1 }
      }
      var actual = original
      let undo = try actual.insert(items, into: target, at: gap)
      let lists = { (board: Board) in board.targets.map(\.items) }
      let change = "\(lists(original)) + \(items) into \(target) at \(String(describing: gap))"
      try #require(actual == expected, "\(change): got \(lists(actual)), expected \(lists(expected))")
      actual.undo(undo)
      try #require(actual == original, "undo of \(change)")
    }
  }

  @Test("an unknown item changes nothing")
  func unknownItem() throws {
    var seed: UInt64 = 1
    let original = try board(seed: &seed)
    var board = original
    #expect(throws: BoardError.unknownItem("ghost")) { try board.insert(["i0", "ghost"], into: "t1", at: 1) }
    #expect(board == original)
  }
}
