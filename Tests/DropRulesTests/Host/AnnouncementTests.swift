import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

/// The built-in announcements: what each step says to a person who cannot see the drag.
@Suite("Announcements in plain English")
struct AnnouncementTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Days named in their data; the list takes drops at a gap, Monday only copies.
  func host() throws -> RuleHost {
    let monday = DropTarget(
      id: "day-13", type: "day", frame: Rect(x: 0, y: 0, width: 100, height: 100),
      data: ["name": .string("Monday 13")], items: ["standup", "lunch"], axis: .vertical, itemExtent: 20)
    let tuesday = DropTarget(
      id: "day-14", type: "day", frame: Rect(x: 100, y: 0, width: 100, height: 100),
      data: ["name": .string("Tuesday 14")], items: ["cover"])
    return try makeHost(
      rules: """
        return { day = {
          canDrag = function(item) return item.id ~= "cover" end,
          dropUpdated = function(info, day) return day.id == "day-13" and "copy" or "move" end,
          performDrop = function(info, day) day:insert(info.items[1]:copy(), info.index) return true end,
        } }
        """, targets: [monday, tuesday],
      items: [textItem("standup"), textItem("lunch"), DragItem(id: "cover", name: "Cover")], directory: directory)
  }

  @Test("lifted, over with the position, dropped, named as people name them; refused and cancelled too")
  func plainEnglish() throws {
    let host = try host()
    try host.beginDrag(DragRequest(items: [.board("standup"), .board("cover")]))
    #expect(host.lastStep?.announcement == "Picked up Standup. Cover stays where it is.")
    _ = try host.movePointer(to: Point(x: 50, y: 30))
    #expect(host.lastStep?.announcement == "Over Monday 13: copy, position 3.")
    _ = try host.movePointer(to: Point(x: 500, y: 500))
    #expect(host.lastStep?.announcement == "Over no drop target.")
    _ = try host.moveOutside(accepting: ["public.item"], operation: .copy)
    #expect(host.lastStep?.announcement == "Over another app: copy.")
    _ = try host.movePointer(to: Point(x: 50, y: 10))
    #expect(try host.drop() == .performed)
    #expect(host.lastStep?.announcement == "Dropped into Monday 13.")
    #expect(host.trace.allSatisfy { $0.announcement?.isEmpty == false }, "every step says something")
    try host.beginDrag(DragRequest(items: [.board("cover")]))
    #expect(host.lastStep?.announcement == "Cover cannot be dragged.")
    try host.beginDrag(DragRequest(items: [.board("lunch")]))
    _ = try host.moveOver("day-14")
    #expect(host.lastStep?.announcement == "Over Tuesday 14: move.", "no position without an item extent")
    #expect(try host.cancel() == .cancelled)
    #expect(host.lastStep?.announcement == "Drag cancelled; everything is back where it was.")
  }
}

extension AnnouncementTests {
  @Test("a rule that names its target with a megabyte, or a drag of many items, gets short announcements")
  func hostileNames() throws {
    let host = try makeHost(
      rules: """
        return { day = {
          dropUpdated = function(_, day) day:set("name", string.rep("M", 1024 * 1024)) return "move" end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a"], type: "day"), items: (1...100).map { textItem("i\($0)") }, directory: directory)
    try host.beginDrag(DragRequest(items: (1...100).map { .external(textItem("e\($0)")) }))
    #expect(host.lastStep?.announcement == "Picked up E1, E2, E3 and 97 more.")
    for _ in 0..<50 { _ = try host.moveOver("a") }
    let announcements = host.trace.compactMap(\.announcement)
    #expect(announcements.allSatisfy { $0.count < 120 }, "\(announcements.map(\.count).max() ?? 0)")
    #expect(announcements.last?.hasPrefix("Over " + String(repeating: "M", count: 59) + "…: copy") == true)
    try host.cancel()
  }
}

extension AnnouncementTests {
  /// Consecutive steps that say the same reuse the sentence; anything it names that
  /// changes in between (a rule renaming its target, a new drag) must say it anew.
  @Test("a step over the same target says the target's new name once a rule renamed it, and a new drag its own")
  func sentencesFollowRenames() throws {
    let host = try makeHost(
      rules: """
        return { day = {
          dropUpdated = function(info, day)
            if info.hoverTime >= 100 then day:set("name", "Renamed " .. info.hoverTime) end
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a"], type: "day", items: ["a": ["one", "two"]]),
      items: [textItem("one"), textItem("two")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("one")]))
    _ = try host.moveOver("a")
    _ = try host.moveOver("a")
    #expect(host.lastStep?.announcement == "Over a: move.")
    _ = try host.perform(.wait(milliseconds: 100))
    #expect(host.lastStep?.announcement == "Over Renamed 100: move.")
    _ = try host.perform(.wait(milliseconds: 50))
    #expect(host.lastStep?.announcement == "Over Renamed 150: move.")
    #expect(
      host.trace.compactMap(\.announcement).suffix(4) == [
        "Over Renamed 150: move.", "Over Renamed 150: move.", "Over Renamed 150: move.", "Over Renamed 150: move.",
      ], "the trace names targets as the board does now")
    #expect(try host.cancel() == .cancelled)
    try host.beginDrag(DragRequest(items: [.board("two")]))
    _ = try host.moveOver("a")
    #expect(host.lastStep?.announcement == "Over a: move.", "the rename was rolled back with the drag")
    #expect(try host.cancel() == .cancelled)
  }
}
