import DropRulesTestSupport
import Testing

@testable import DropRulesModel

/// The bytes of data rules store, as the board counts them while it changes.
@Suite("The board's data account")
struct BoardDataAccountTests {
  @Test("data added is counted, data undone or removed is not, and the data a board was made with is free")
  func account() throws {
    var targets = row(["a", "b"])
    targets[0].data = ["given": .string(String(repeating: "x", count: 1_000))]
    var board = try Board(targets: targets, items: [])
    #expect(board.storedDataBytes == 0)
    let added = try board.setData("note", to: .string(String(repeating: "y", count: 500)), on: "b")
    let stored = board.storedDataBytes
    #expect(stored >= 500)
    board.undo(added)
    #expect(board.storedDataBytes == 0)
    // Freeing given data makes room: what is stored is what exceeds the given data.
    _ = try board.setData("given", to: nil, on: "a")
    _ = try board.setData("note", to: .string(String(repeating: "y", count: 500)), on: "b")
    #expect(board.storedDataBytes == 0)
    _ = try board.setData("more", to: .array(Array(repeating: .integer(1), count: 200)), on: "b")
    #expect(board.storedDataBytes > 0)
  }

  @Test("two boards with the same targets and items are equal, however their data came to be")
  func equalityIgnoresTheAccount() throws {
    var targets = row(["a"])
    targets[0].data = ["k": .bool(true)]
    let given = try Board(targets: targets, items: [])
    var changed = try Board(targets: row(["a"]), items: [])
    _ = try changed.setData("k", to: .bool(true), on: "a")
    #expect(given == changed)
    #expect(given.storedDataBytes == 0 && changed.storedDataBytes > 0)
  }

  @Test("an item's whole data is paid for by the last to change it, and an undo gives it back to who paid before")
  func itemPayers() throws {
    var item = DragItem(id: "i")
    item.data = ["given": .string(String(repeating: "x", count: 1_000))]
    var board = try Board(targets: row(["a", "b"], items: ["a": ["i"]]), items: [item])
    #expect(board.itemDataPayer(of: "i") == nil)
    let first = try board.setItemData("note", to: .string("n"), on: "i", paidBy: "A")
    let whole = Board.dataBytes(of: try #require(board.item("i")))
    #expect(board.itemDataBytes(paidBy: "A") == whole)
    // Moving an item changes no one's share; changing it does.
    _ = try board.insert("i", into: "b", at: nil)
    #expect(board.itemDataBytes(paidBy: "A") == whole)
    let second = try board.setItemData("more", to: .string(String(repeating: "y", count: 500)), on: "i", paidBy: "B")
    #expect(board.itemDataBytes(paidBy: "A") == 0)
    #expect(board.itemDataBytes(paidBy: "B") == Board.dataBytes(of: try #require(board.item("i"))))
    board.undo(second)
    #expect(board.itemDataBytes(paidBy: "A") == whole && board.itemDataBytes(paidBy: "B") == 0)
    board.undo(first)
    #expect(board.itemDataBytes(paidBy: "A") == 0 && board.itemDataPayer(of: "i") == nil)
  }

  @Test("a copy's data is paid for by who copied it until the copy is gone")
  func copyPayer() throws {
    var copy = DragItem(id: "i-copy1")
    copy.data = ["given": .string(String(repeating: "x", count: 1_000))]
    var board = try Board(targets: row(["a"]), items: [])
    let added = try board.addDetached(copy, paidBy: "A")
    #expect(board.itemDataBytes(paidBy: "A") == Board.dataBytes(of: copy))
    board.pruneDetached(among: added)
    #expect(board.itemDataBytes(paidBy: "A") == 0)
  }
}
