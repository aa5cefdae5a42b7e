import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// Each rule file pays for the item data it changed, from a share of its own: albums.lua
/// serves `album` (a1 holds p1, a2 is empty), shelves.lua serves `shelf` (s holds s1, s2
/// is empty).
@Suite("Each file's share of item data")
struct ItemDataShareTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Albums fills its share on its own item p1, 256 KiB a key, until a write fails.
  static let filling = #"""
    return { album = {
      dropUpdated = function(info)
        local block = string.rep("a", 262144)
        for n = 1, 20 do
          if not pcall(function() info.items[1]:set("k" .. n, block) end) then break end
        end
        return "move"
      end,
      performDrop = function(info, album) album:insert(info.items); return true end,
    } }
    """#

  func host(albums: String, shelves: String) throws -> RuleHost {
    let targets = [
      DropTarget(id: "a1", type: "album", frame: Rect(x: 0, y: 0, width: 100, height: 100), items: ["p1"]),
      DropTarget(id: "a2", type: "album", frame: Rect(x: 100, y: 0, width: 100, height: 100)),
      DropTarget(id: "s", type: "shelf", frame: Rect(x: 200, y: 0, width: 100, height: 100), items: ["s1"]),
      DropTarget(id: "s2", type: "shelf", frame: Rect(x: 300, y: 0, width: 100, height: 100)),
    ]
    return try makeHost(
      files: [("albums.lua", albums), ("shelves.lua", shelves)], targets: targets,
      items: [textItem("p1"), textItem("s1")], directory: directory,
      limits: LuaLimits(maxInstructions: 100_000_000, maxMemory: 2 << 20))
  }

  @Test("a file that fills its share of item data leaves another file's item writes working")
  func sharePerFile() throws {
    let shelves = #"""
      return { shelf = {
        dropUpdated = function(info) info.items[1]:set("mine", string.rep("s", 262144)); return "move" end,
        performDrop = function(info, shelf) shelf:insert(info.items); return true end,
      } }
      """#
    let host = try host(albums: Self.filling, shelves: shelves)
    try host.beginDrag(DragRequest(items: [.board("p1")]))
    try host.moveOver("a2")
    #expect(try host.drop() == .performed)
    let filled = try #require(host.board.item("p1")).data.count
    #expect(filled >= 6 && filled < 8, "albums' writes stop at its share: \(filled) keys")
    try host.beginDrag(DragRequest(items: [.board("s1")]))
    try host.moveOver("s2")
    #expect(try host.drop() == .performed)
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.map(\.message))")
    #expect(host.board.item("s1")?.data["mine"] != nil)
  }

  @Test("a file that changes an item another file paid for takes over all of its data")
  func takingOver() throws {
    // Shelves takes p1, with albums' data, and tags it; albums then has its whole share
    // again for a copy of the same size.
    let shelves = #"""
      return { shelf = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, shelf)
          info.items[1]:set("shelved", true)
          shelf:insert(info.items)
          return true
        end,
      } }
      """#
    let host = try host(albums: Self.filling, shelves: shelves)
    try host.beginDrag(DragRequest(items: [.board("p1")]))
    try host.moveOver("a2")
    #expect(try host.drop() == .performed)
    let albumsPaid = host.board.itemDataBytes(paidBy: try #require(host.board.itemDataPayer(of: "p1")))
    #expect(albumsPaid > 1 << 20)
    try host.beginDrag(DragRequest(items: [.board("p1")]))
    try host.moveOver("s2")
    #expect(try host.drop() == .performed)
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.map(\.message))")
    let payer = try #require(host.board.itemDataPayer(of: "p1"))
    #expect(payer.hasSuffix("shelves.lua"))
    #expect(host.board.itemDataBytes(paidBy: payer) > albumsPaid)
  }
}
