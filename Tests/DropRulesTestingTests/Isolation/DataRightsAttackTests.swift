import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesTesting

/// Red-team attacks on write ownership, the board's data shares and info's call fields,
/// written as rule tests: albums.lua serves `album` (a1 holds p1, a2 is empty),
/// shelves.lua serves `shelf` (s holds s1, s2 is empty). Each test file's tests assert
/// the correct behaviour; a failing one shows a hole.
@Suite("Red team: write ownership, data shares and call fields")
struct DataRightsAttackTests {
  static let board = #"""
    local function board()
      return scenario { rules = { "albums.lua", "shelves.lua" }, board = { targets = {
        { id = "a1", type = "album", frame = { 0, 0, 100, 100 }, items = { { id = "p1", name = "P1" } } },
        { id = "a2", type = "album", frame = { 100, 0, 100, 100 } },
        { id = "s", type = "shelf", frame = { 200, 0, 100, 100 }, items = { { id = "s1", name = "S1" } } },
        { id = "s2", type = "shelf", frame = { 300, 0, 100, 100 } },
      } } }
    end
    """#

  func run(
    albums: String, shelves: String, test: String, maxMemory: Int = 64 << 20, maxInstructions: Int = 1_000_000
  ) throws -> [TestCaseResult] {
    let directory = try TemporaryDirectory()
    try directory.write("albums.lua", albums)
    try directory.write("shelves.lua", shelves)
    let file = try directory.write("attack_test.lua", Self.board + "\n" + test)
    return RuleTestRunner(limits: LuaLimits(maxInstructions: maxInstructions, maxMemory: maxMemory)).run(files: [file])
  }

  static let plainAlbums = #"""
    return { album = {
      dropUpdated = function() return "move" end,
      performDrop = function(info, album) return true end,
    } }
    """#

  @Test("a file whose target was only hovered cannot commit data on a dragged item another file's drop keeps in place")
  func hoveredWriteOnDraggedItem() throws {
    let shelves = #"""
      return { shelf = {
        dropUpdated = function(info) info.items[1]:set("tag", "shelves was here"); return "move" end,
        performDrop = function(info, shelf) shelf:insert(info.items); return true end,
      } }
      """#
    let results = try run(
      albums: Self.plainAlbums, shelves: shelves,
      test: #"""
        test("p1 stays in albums' a1 without shelves' tag", function()
          local sim = board()
          local drag = sim:drag("p1")
          drag:over("s")
          drag:over("a2")
          expect(drag:drop()):toBe("performed")
          expect(sim:item("p1").container):toBe("a1")
          expect(sim:item("p1").data.tag):toBeNil()
          local errors = sim:takeErrors()
          expect(#errors):toBe(1)
          expect(errors[1].message):toContain("and in performDrop on the items it receives")
        end)
        """#)
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures))")
  }

  @Test("moving another file's item into one's own target, writing it and moving it back does not launder the write")
  func launderByMove() throws {
    let shelves = #"""
      return { shelf = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, shelf)
          shelf:insert(info.items)
          local p = info.board:item("p1")
          shelf:insert(p)
          print("set", pcall(p.set, p, "tag", "shelves was here"))
          info.board:target("a1"):insert(p)
          return true
        end,
      } }
      """#
    let results = try run(
      albums: Self.plainAlbums, shelves: shelves,
      test: #"""
        test("p1 is back in a1 and carries no tag of shelves", function()
          local sim = board()
          local drag = sim:drag("s1")
          drag:over("s2")
          drag:drop()
          sim:takeErrors()
          if sim:item("p1").container == "a1" then expect(sim:item("p1").data.tag):toBeNil() end
        end)
        """#)
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures)) \(results.map(\.printed.lines))")
  }

  @Test("a copy inserted into another file's target is that file's: writing it afterwards is refused")
  func copyInsertedThenSet() throws {
    let shelves = #"""
      return { shelf = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, shelf)
          shelf:insert(info.items)
          local c = info.board:item("p1"):copy()
          info.board:target("a1"):insert(c)
          print("set", pcall(c.set, c, "tag", "shelves was here"))
          return true
        end,
      } }
      """#
    let results = try run(
      albums: Self.plainAlbums, shelves: shelves,
      test: #"""
        test("nothing in a1 carries shelves' tag", function()
          local sim = board()
          local drag = sim:drag("s1")
          drag:over("s2")
          drag:drop()
          sim:takeErrors()
          for _, id in ipairs(sim:items("a1")) do expect(sim:item(id).data.tag):toBeNil() end
        end)
        """#)
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures)) \(results.map(\.printed.lines))")
  }

  @Test("in dragEnded the source file cannot change an item that the drop moved into another file's target")
  func dragEndedOnMovedItem() throws {
    let albums = #"""
      return { album = {
        dropUpdated = function() return "move" end,
        performDrop = function() return true end,
        dragEnded = function(info)
          for _, item in ipairs(info.items) do print("set", pcall(item.set, item, "endedBy", "albums")) end
        end,
      } }
      """#
    let shelves = #"""
      return { shelf = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, shelf) shelf:insert(info.items); return true end,
      } }
      """#
    let results = try run(
      albums: albums, shelves: shelves,
      test: #"""
        test("p1, now on shelves' s, has no data of albums", function()
          local sim = board()
          local drag = sim:drag("p1")
          drag:over("s")
          expect(drag:drop()):toBe("performed")
          expect(sim:item("p1").container):toBe("s")
          expect(sim:item("p1").data.endedBy):toBeNil()
        end)
        """#)
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures)) \(results.map(\.printed.lines))")
  }

  @Test("copying items whose data fills the items' share cannot put more than (files + 1) x the cap on the board")
  func copiesBound() throws {
    let shelves = #"""
      return { shelf = {
        dropUpdated = function() return "copy" end,
        performDrop = function(info, shelf)
          for i = 1, 40 do
            local ok = pcall(function() shelf:insert(info.items[1]:copy()) end)
            if not ok then break end
          end
          return true
        end,
      } }
      """#
    let results = try run(
      albums: Self.plainAlbums, shelves: shelves,
      test: #"""
        test("the board holds at most 3 x 8 MiB of rule-made data", function()
          local sim = board()
          local drag = sim:drag("s1")
          drag:over("s2")
          drag:drop()
          sim:takeErrors()
          local total = 0
          for _, id in ipairs(sim:items("s2")) do
            for _, value in pairs(sim:item(id).data) do total = total + #tostring(value) end
          end
          expect(total <= 3 * 8 * 1048576):toBe(true)
        end)
        """#, maxMemory: 8 << 20)
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures))")
  }

  @Test("info's call fields are booleans where promised, in every handler, and never the value of another call")
  func callFields() throws {
    let albums = #"""
      local kept, keptCo
      return { album = {
        canDrag = function(item, source, info)
          kept = info
          print("canDrag", type(info.outside), type(info.wouldContainItself), tostring(info.operation))
          return true
        end,
        dragOperations = function(info) print("dragOperations", type(info.outside)); return nil end,
        dropUpdated = function(info, album)
          keptCo = keptCo or coroutine.wrap(function()
            while true do coroutine.yield(tostring(info.index) .. "/" .. tostring(info.operation)) end
          end)
          print("dropUpdated", album.id, tostring(info.index), keptCo())
          return "move"
        end,
        performDrop = function(info, album)
          print("performDrop", info.operation, (pcall(function() return kept.operation end)), keptCo())
          album:insert(info.items)
          return true
        end,
        dragEnded = function(info)
          print("dragEnded", type(info.outside), tostring(info.operation), tostring(info.outcome))
        end,
      } }
      """#
    let results = try run(
      albums: albums, shelves: Self.plainAlbums.replacingOccurrences(of: "album", with: "shelf"),
      test: #"""
        test("the fields read the running call", function()
          local sim = board()
          local drag = sim:drag("p1")
          drag:over("a2", { index = 1 })
          expect(drag:drop()):toBe("performed")
        end)
        """#)
    let lines = results.first?.printed.lines ?? []
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures))")
    #expect(lines.contains("canDrag\tboolean\tboolean\tnil"), "\(lines)")
    #expect(lines.contains("dragOperations\tboolean"), "\(lines)")
    #expect(lines.contains("dropUpdated\ta2\t1\t1/nil"), "\(lines)")
    #expect(lines.contains("performDrop\tmove\tfalse\t1/move"), "\(lines)")
    #expect(lines.contains("dragEnded\tboolean\tmove\tperformed"), "\(lines)")
  }
}
