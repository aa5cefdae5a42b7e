import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// A kept object whose target or item has left the board raises when a field is read,
/// and the error names the rule's line, where the read is, not the rule API's.
@Suite("Reading a field of an object that left the board names the rule's line")
struct GoneObjectTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A rule that keeps an object from its first call and, on a later drag, reads
  /// `field` of it on line 4, printing what `pcall` gave.
  func message(keeping keep: String, field: String) throws -> String? {
    let host = try makeHost(
      rules: """
        local kept
        return { box = { dropUpdated = function(info, target)
          if kept == nil then kept = \(keep) return "move" end
          print(select(2, pcall(function() return kept.\(field) end)))
          return "move"
        end } }
        """, targets: row(["list", "other"], items: ["list": ["a"], "other": ["b"]]),
      items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("list")
    try host.cancel()
    let remaining = row(["list"], items: ["list": ["a"]])
    try host.replaceBoard(Board(targets: remaining, items: [textItem("a")]))
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("list")
    return host.printedLines.first
  }

  @Test(
    "a target's fields", arguments: ["items", "data", "type", "frame", "parent", "collapsed"])
  func targetFields(_ field: String) throws {
    let printed = try message(keeping: #"info.board:target("other")"#, field: field)
    // Lua shortens a long path in a message to its tail, `...rules.lua:4:`.
    #expect(printed?.hasSuffix("rules.lua:4: target 'other' is no longer on the board") == true, "\(printed ?? "")")
  }

  @Test("an item's fields", arguments: ["data", "name", "types", "opens"])
  func itemFields(_ field: String) throws {
    let printed = try message(keeping: #"info.board:item("b")"#, field: field)
    #expect(printed?.hasSuffix("rules.lua:4: item 'b' is no longer on the board") == true, "\(printed ?? "")")
  }
}
