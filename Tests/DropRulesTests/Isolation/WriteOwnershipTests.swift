import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// A file changes data only on targets of the types it serves, the items they hold and
/// the drag's own items: another file's targets are read-only to it, with an error that
/// names both files. Moving items in a drop is not a data change and stays open.
@Suite("A rule file changes only its own targets' data")
struct WriteOwnershipTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Albums (albums.lua) holding photo p1, a shelf (shelves.lua) holding s1, and an
  /// untyped box no file serves, holding b1. Shelves's performDrop runs `attack` and
  /// prints whether each write went through.
  func run(_ attack: String, files extra: [(name: String, source: String)] = []) throws -> RuleHost {
    let albums = """
      return { album = { dropUpdated = function() return "forbidden" end } }
      """
    let shelves = """
      return { shelf = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, shelf)
          local board = info.board
          local function try(label, f, ...) print(label, pcall(f, ...)) end
          \(attack)
          shelf:insert(info.items)
          return true
        end,
      } }
      """
    var targets = row(["a1"], type: "album", items: ["a1": ["p1"]]) + row(["s"], type: "shelf", items: ["s": ["s1"]])
    targets += row(["box"], type: "box", items: ["box": ["b1"]])
    targets[1].frame.x = 100
    targets[2].frame.x = 200
    let host = try makeHost(
      files: [("albums.lua", albums), ("shelves.lua", shelves)] + extra, targets: targets,
      items: ["p1", "s1", "b1", "x"].map(textItem), directory: directory)
    try host.beginDrag(DragRequest(items: [.board("b1")], allowedOperations: [.move]))
    _ = try host.moveOver("s")
    #expect(try host.drop() == .performed)
    return host
  }

  func refusal(_ caller: String, _ what: String, type: String, servedBy owner: String) -> String {
    "\(caller): \(what) is of type '\(type)', \(owner); \(directory.path)/shelves.lua may read it, not change it "
      + "(a file changes data only on targets of its own types and the items they hold, and in performDrop on the "
      + "items it receives)"
  }

  /// Whether `printed` is `label`'s failed write at `line` of shelves.lua, refused with `refusal` (Lua
  /// shortens the file's path in the position).
  func refused(_ printed: String?, _ label: String, line: Int, _ refusal: String) -> Bool {
    guard let printed else { return false }
    return printed.hasPrefix("\(label)\tfalse\t") && printed.contains("shelves.lua:\(line): ")
      && printed.hasSuffix(refusal)
  }

  @Test("target:set and target:setForDrag on another file's target raise, naming both files; nothing changes")
  func anotherFilesTarget() throws {
    let host = try run(
      """
      try("set", function() board:target("a1"):set("owned", "by shelves") end)
      try("forDrag", function() board:target("a1"):setForDrag("hover", true) end)
      """)
    let owner = "which \(directory.path)/albums.lua serves"
    #expect(host.printedLines.count == 2)
    #expect(
      refused(
        host.printedLines.first, "set", line: 6, refusal("target:set", "target 'a1'", type: "album", servedBy: owner)))
    #expect(
      refused(
        host.printedLines.last, "forDrag", line: 7,
        refusal("target:setForDrag", "target 'a1'", type: "album", servedBy: owner)))
    #expect(host.board.target("a1")?.data["owned"] == nil)
  }

  @Test("item:set on an item another file's target holds raises; on its own items and the drag's, it goes through")
  func items() throws {
    let host = try run(
      """
      try("theirs", function() board:item("p1"):set("tag", 1) end)
      try("own", function() board:item("s1"):set("tag", 2) end)
      try("dragged", function() info.items[1]:set("tag", 3) end)
      try("shelf", function() shelf:set("count", 1) end)
      """)
    #expect(host.printedLines.count == 4)
    #expect(
      refused(
        host.printedLines.first, "theirs", line: 6,
        refusal(
          "item:set", "item 'p1' in target 'a1'", type: "album", servedBy: "which \(directory.path)/albums.lua serves"))
    )
    #expect(Array(host.printedLines.dropFirst()) == ["own\ttrue", "dragged\ttrue", "shelf\ttrue"])
    #expect(host.board.item("p1")?.data["tag"] == nil)
    #expect(host.board.item("s1")?.data["tag"] == .integer(2))
    #expect(host.board.item("b1")?.data["tag"] == .integer(3))
    #expect(host.board.target("s")?.data["count"] == .integer(1))
  }

  @Test("a target of a type no file serves is read-only to every file; the fallback's file serves the rest")
  func unservedAndFallback() throws {
    let unserved = try run(#"try("box", function() board:target("box"):set("k", 1) end)"#)
    #expect(unserved.printedLines.count == 1)
    #expect(
      refused(
        unserved.printedLines.first, "box", line: 6,
        refusal("target:set", "target 'box'", type: "box", servedBy: "which no rule file serves")))
    let served = try run(
      #"try("box", function() board:target("box"):set("k", 1) end)"#,
      files: [("anything.lua", #"return { ["*"] = { dropUpdated = function() return "forbidden" end } }"#)])
    #expect(served.printedLines.count == 1)
    #expect(
      refused(
        served.printedLines.first, "box", line: 6,
        refusal("target:set", "target 'box'", type: "box", servedBy: "which \(directory.path)/anything.lua serves")))
  }
}
