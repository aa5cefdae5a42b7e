import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// `commits`: a board put back needs putting back again only after a commit.
@Suite("The count of commits")
struct CommitCountTests {
  @Test("a performed drop that changed the board and a dragEnded that did count; cancels and empty drops do not")
  func counts() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function(info, box) return "move" end,
          performDrop = function(info, box)
            if box.id == "b" then box:insert(info.items) end
            return true
          end,
          dragEnded = function(info, box)
            if info.outcome == "cancelled" and info.modifiers.option then box:set("cleaned", true) end
          end,
        } }
        """, targets: row(["a", "b", "c"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    #expect(host.commits == 0)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    try host.cancel()
    #expect(host.commits == 0, "a cancel commits nothing")
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("c")
    #expect(try host.drop() == .performed)
    #expect(host.commits == 0, "a performed drop that changed nothing")
    try host.beginDrag(DragRequest(items: [.board("x")], modifiers: [.option]))
    try host.cancel()
    #expect(host.commits == 1, "dragEnded's own transaction")
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.commits == 2)
    #expect(host.board.items(in: "b") == ["x"])
  }
}
