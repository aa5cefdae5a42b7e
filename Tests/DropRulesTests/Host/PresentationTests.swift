import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// What a drag shows and says: `dragPreview` and `announce`, read-only, bounded, and
/// never able to break the drag.
@Suite("Presentation: dragPreview and announce")
struct PresentationTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  static let announcingRule = """
    return { box = {
      dragPreview = function(items, source)
        return { title = items[1].name, subtitle = "from " .. source.id, badge = #items }
      end,
      dropUpdated = function(info, box) return { operation = "move", index = info.index } end,
      performDrop = function(info, box) box:insert(info.items) return true end,
      announce = function(event, info, box)
        if event == "lifted" then return "Lifted " .. info.items[1].name .. " from " .. box.id end
        if event == "entered" then return "Now over " .. box.id end
        if event == "dropped" then return "Moved " .. info.items[1].name .. " to " .. box.id .. "." end
        return nil
      end,
    } }
    """

  @Test("a source's dragPreview is on the begin step; announce replaces the built-in sentences it answers")
  func previewAndAnnouncements() throws {
    let host = try makeHost(
      rules: Self.announcingRule, targets: row(["a", "b"], items: ["a": ["x", "y"]]),
      items: [textItem("x"), textItem("y")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x"), .board("y")]))
    #expect(host.lastStep?.preview == DragPreview(title: "X", subtitle: "from a", badge: "2"))
    #expect(host.lastStep?.announcement == "Lifted X from a")
    try host.moveOver("b")
    #expect(host.lastStep?.announcement == "Now over b")
    try host.movePointer(to: Point(x: 160, y: 60))
    #expect(host.lastStep?.announcement == "Over b: move.", "nil keeps the built-in sentence")
    #expect(try host.drop() == .performed)
    #expect(host.lastStep?.announcement == "Moved X to b.")
    #expect(host.trace.first?.preview?.title == "X", "the trace keeps what the protocol answered")
  }

  @Test("without dragPreview the preview is the first item's name and the count")
  func defaultPreview() throws {
    let host = try makeHost(
      rules: "return { box = { performDrop = function() return true end } }",
      targets: row(["a"], items: ["a": ["x", "y", "z"]]), items: [textItem("x"), textItem("y"), textItem("z")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("y"), .board("z")]))
    #expect(host.lastStep?.preview == DragPreview(title: "Y", badge: "2"))
    try host.cancel()
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(host.lastStep?.preview == DragPreview(title: "X"))
  }

  @Test("announce and dragPreview are read-only, and what they return is checked and bounded")
  func hostileHandlers() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dragPreview = function(items, source) return { title = string.rep("t", 100000), colour = "red" } end,
          dropUpdated = function() return "move" end,
          performDrop = function(info, box) box:insert(info.items) return true end,
          announce = function(event, info, box)
            if event == "entered" then box:set("spoken", true) end
            if event == "proposal" then return 42 end
            if event == "dropped" then return string.rep("word ", 100000) end
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(host.lastStep?.preview == DragPreview(title: "X"), "a bad answer keeps the default")
    #expect(host.diagnostics.last?.message.contains("dragPreview returned a table") == true)
    try host.moveOver("b")
    #expect(host.diagnostics.last?.message.contains("read-only") == true, "\(host.diagnostics.last?.message ?? "")")
    #expect(host.lastStep?.announcement == "Over b: move.")
    #expect(try host.drop() == .performed, "a broken announce never breaks the drop")
    #expect(host.board.target("b")?.data["spoken"] == nil)
    #expect(host.lastStep?.announcement?.count == DragEngineLimits.longestPresentationText)
  }
}
