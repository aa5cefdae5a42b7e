import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// A containment move the board refuses, caught with pcall by a performDrop that then
/// returns true: the drop ended `performed` and said "Dropped into docs." with nothing
/// moved. The host refuses it whatever the rule returns.
@Suite("A refused containment move caught with pcall fails the drop")
struct CaughtRefusalTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  static func rule(_ operation: String) -> String {
    """
    return { folder = {
      dropUpdated = function() return "\(operation)" end,
      performDrop = function(info, folder)
        local ok = pcall(folder.insert, folder, info.items[1])
        assert(not ok, "the board refuses a target inside itself")
        return true
      end,
    } }
    """
  }

  @Test(
    "under a move and under a copy: failed, nothing moved, no 'Dropped into' sentence", arguments: ["move", "copy"])
  func caughtRefusal(_ operation: String) throws {
    let (targets, items) = try TreeTests.outline()
    let host = try makeHost(rules: Self.rule(operation), targets: targets, items: items, directory: directory)
    let before = host.board
    try host.beginDrag(DragRequest(items: [.board("docs-row")]))
    try host.moveOver("inner")
    #expect(try host.drop() == .failed)
    #expect(host.board == before)
    let last = try #require(host.trace.last)
    #expect(
      last.outcomeReason
        == .containedItself(target: "inner", item: "docs-row", opened: "docs", destination: "inner"))
    let sentence = last.announce(on: host.board)
    #expect(!sentence.contains("Dropped into"), "\(sentence)")
    #expect(sentence == "Not dropped: inner did not take it.")
    #expect(host.diagnostics.isEmpty, "the rule caught its error; the outcome says why")
  }

  @Test("a later legal move in the same performDrop does not make the refused one performed")
  func refusalThenLegalMove() throws {
    let (targets, items) = try TreeTests.outline()
    let host = try makeHost(
      rules: """
        return { folder = {
          dropUpdated = function() return "move" end,
          performDrop = function(info, folder)
            pcall(folder.insert, folder, info.items[1])
            info.board:target("music"):insert(info.board:item("inner-row"))
            return true
          end,
        } }
        """, targets: targets, items: items, directory: directory)
    let before = host.board
    try host.beginDrag(DragRequest(items: [.board("docs-row")]))
    try host.moveOver("inner")
    #expect(try host.drop() == .failed)
    #expect(host.board == before, "what performDrop staged is rolled back")
    // The next drag starts clean.
    try host.beginDrag(DragRequest(items: [.board("music-row")]))
    try host.moveOver("docs")
    #expect(try host.drop() == .performed)
  }
}
