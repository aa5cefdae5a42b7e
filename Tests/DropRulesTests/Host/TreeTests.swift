import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// Containers that move and open, through Lua rules: rows that stand for folders,
/// `info.wouldContainItself`, the host's refusal, frames after a layout change, and
/// spring-loading.
@Suite("Trees: folders that move, open and refuse to contain themselves")
struct TreeTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A rule that moves whatever is dropped into the folder under the pointer, and
  /// never checks whether that folder is inside the dragged one.
  static let carelessRule = """
    return { folder = {
      dropUpdated = function(info, folder)
        print(folder.id, info.wouldContainItself)
        return "move"
      end,
      performDrop = function(info, folder) folder:insert(info.items) return true end,
    } }
    """

  /// root [0,0,300,300] holds rows for docs [0,100,100,100] and music [200,100,100,100];
  /// docs holds a row for inner [0,200,100,50].
  static func outline(collapsedDocs: Bool = false) throws -> ([DropTarget], [DragItem]) {
    (
      [
        // Rows of 50 points: docs-row spans y 0 to 50, music-row 50 to 100.
        DropTarget(
          id: "root", type: "folder", frame: Rect(x: 0, y: 0, width: 300, height: 300),
          items: ["docs-row", "music-row"],
          axis: .vertical, itemExtent: 50),
        DropTarget(
          id: "docs", type: "folder", frame: Rect(x: 0, y: 100, width: 100, height: 100), items: ["inner-row"],
          collapsed: collapsedDocs),
        DropTarget(id: "music", type: "folder", frame: Rect(x: 200, y: 100, width: 100, height: 100)),
        DropTarget(id: "inner", type: "folder", frame: Rect(x: 0, y: 200, width: 100, height: 50)),
      ],
      [
        DragItem(id: "docs-row", name: "Docs", opens: "docs"), DragItem(id: "music-row", name: "Music", opens: "music"),
        DragItem(id: "inner-row", name: "Inner", opens: "inner"),
      ]
    )
  }

  @Test("a folder row dropped into its own descendant is refused and stays put, whatever the rule says")
  func refusedIntoItsDescendant() throws {
    let (targets, items) = try Self.outline()
    let host = try makeHost(rules: Self.carelessRule, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("docs-row")]))
    #expect(try host.moveOver("inner") == .move)
    #expect(try host.drop() == .failed)
    #expect(host.board.items(in: "root") == ["docs-row", "music-row"])
    #expect(host.board.target("docs")?.parent == "root")
    let message = try #require(host.diagnostics.last?.message)
    #expect(message.contains("would put target 'docs' inside itself"), "\(message)")
    #expect(host.diagnostics.last?.line == 6, "the error names the rule's insert")
    #expect(host.printedLines == ["inner\ttrue"], "the rule could have known")
  }

  @Test("a legal move re-parents the folder with its subtree, and the next drag hit-tests the new tree")
  func legalMoveReparents() throws {
    let (targets, items) = try Self.outline()
    let host = try makeHost(rules: Self.carelessRule, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("docs-row")]))
    #expect(try host.moveOver("music") == .move)
    #expect(host.printedLines == ["music\tfalse"])
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "music") == ["docs-row"])
    #expect(host.board.target("docs")?.parent == "music")
    #expect(host.board.target("inner")?.parent == "docs")
    // Now music is an ancestor of inner: dragging music's row into inner would contain it.
    try host.beginDrag(DragRequest(items: [.board("music-row")]))
    #expect(try host.movePointer(to: Point(x: 50, y: 220)) == .move)
    #expect(host.lastStep?.target == "inner")
    #expect(try host.drop() == .failed)
    #expect(host.board.target("music")?.parent == "root")
  }

  @Test("a frames step moves targets after a layout change and hit-tests the pointer again; a rollback keeps them")
  func framesStep() throws {
    let (targets, items) = try Self.outline()
    let host = try makeHost(rules: Self.carelessRule, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("music-row")]))
    #expect(try host.movePointer(to: Point(x: 50, y: 150)) == .move)
    #expect(host.lastStep?.target == "docs")
    // docs slides away from under the pointer: root is under it now.
    #expect(try host.perform(.frames(["docs": Rect(x: 0, y: 400, width: 100, height: 100)])) == .proposal(.move))
    #expect(host.lastStep?.target == "root")
    #expect(host.lastStep?.action.description == "frames docs [0, 400, 100, 100]")
    #expect(try host.cancel() == .cancelled)
    #expect(host.board.target("docs")?.frame == Rect(x: 0, y: 400, width: 100, height: 100))
    #expect(throws: DragError.unknownTarget("nowhere")) {
      try host.setFrames(["nowhere": .init(x: 0, y: 0, width: 1, height: 1)])
    }
  }

  /// Opens a closed folder after 500 ms of dwell on its row.
  static let springLoadingRule = """
    return { folder = {
      dropUpdated = function(info, folder)
        local row = info.over
        if row and row.opens and row.opens.collapsed and info.hoverTime >= 500 then
          return { operation = "move", open = true }
        end
        return "move"
      end,
      performDrop = function(info, folder) folder:insert(info.items) return true end,
    } }
    """

  @Test("a closed folder and its inner targets take no drops until a rule spring-loads it, then for the whole drag")
  func springLoading() throws {
    let (targets, items) = try Self.outline(collapsedDocs: true)
    let host = try makeHost(rules: Self.springLoadingRule, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("music-row")]))
    try host.movePointer(to: Point(x: 50, y: 220))
    #expect(host.lastStep?.target == "root", "inner is inside closed docs")
    #expect(host.lastStep?.skipped.first?.reason == .closed(in: "docs"))
    try host.movePointer(to: Point(x: 50, y: 150))
    #expect(host.lastStep?.target == "root", "docs itself is closed")
    // Resting on docs' row: the rule opens docs after 500 ms.
    try host.movePointer(to: Point(x: 50, y: 25))
    #expect(host.lastStep?.over == "docs-row")
    #expect(try host.perform(.wait(milliseconds: 300)) == .proposal(.move))
    #expect(host.lastStep?.springLoaded == [])
    #expect(try host.perform(.wait(milliseconds: 300)) == .proposal(.move))
    #expect(host.lastStep?.springLoaded == ["docs"])
    try host.movePointer(to: Point(x: 50, y: 150))
    #expect(host.lastStep?.target == "docs", "spring-loaded: docs takes drops")
    try host.movePointer(to: Point(x: 50, y: 220))
    #expect(host.lastStep?.target == "inner", "spring-loaded: inner takes the drop")
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "inner") == ["music-row"])
    #expect(host.board.target("docs")?.collapsed == true, "spring-loading lasts the drag only")
    // The next drag starts with docs closed again.
    try host.beginDrag(DragRequest(items: [.board("docs-row")]))
    try host.movePointer(to: Point(x: 50, y: 220))
    #expect(host.lastStep?.target == "root")
    try host.cancel()
  }

  @Test("item.opens and target.collapsed read the board; a copy of a row is a plain item")
  func luaFields() throws {
    let (targets, items) = try Self.outline(collapsedDocs: true)
    let host = try makeHost(
      rules: """
        return { folder = {
          dropUpdated = function(info, folder)
            local row = info.items[1]
            print(row.opens.id, row.opens.collapsed, row.opens.parent.id, folder.collapsed)
            return "copy"
          end,
          performDrop = function(info, folder)
            local copy = info.items[1]:copy()
            print(copy.opens)
            folder:insert(copy)
            return true
          end,
        } }
        """, targets: targets, items: items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("docs-row")]))
    try host.moveOver("music")
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["docs\ttrue\troot\tfalse", "nil"])
    #expect(host.board.items(in: "music").count == 1)
    #expect(host.board.target("docs")?.parent == "root", "the copy did not take the folder along")
  }
}
