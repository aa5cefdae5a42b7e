import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRulesModel

/// Every step's announcement, reused from the last step's or not, says what the built-in
/// sentence says when made afresh from the board and the drag's item names now (a red
/// team's differential attack on `SentenceMemo`, kept).
@Suite("Announcements reused between steps")
struct SentenceMemoTests {
  let directory: TemporaryDirectory
  init() throws { directory = try TemporaryDirectory() }

  @Test(
    "random renames, drag-only data, modifiers, waits, moves off the board and into another app, drops, cancels and new drags never make a stale sentence"
  )
  func differential() throws {
    let host = try makeHost(
      rules: """
        return { day = {
          dropUpdated = function(info, day)
            local x = math.floor(info.location.x)
            if x % 3 == 0 then day:set("name", "N" .. (x % 7)) end
            if x % 5 == 0 then day:setForDrag("name", "D" .. x) end
            if x % 11 == 0 then day:set("title", "T" .. x) end
            if x % 4 == 0 then return "copy" end
            if x % 13 == 0 then return "forbidden" end
            return { operation = "move", index = 1 + x % 3 }
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b", "c"], type: "day", items: ["a": ["one", "two"], "b": ["three"]]),
      items: [textItem("one"), textItem("two"), textItem("three")], directory: directory)
    var rng = SeededRandom(seed: 23)
    var checked = 0
    for _ in 0..<40 {
      let item: ItemID = ["one", "two", "three"].randomElement(using: &rng) ?? "one"
      guard (try? host.beginDrag(DragRequest(items: [.board(item)]))) != nil else { continue }
      for _ in 0..<30 {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0, 1:
          _ = try? host.movePointer(
            to: Point(x: Double(Int.random(in: 0..<320, using: &rng)), y: Double(Int.random(in: 0..<100, using: &rng))))
        case 2: _ = try? host.moveOver(["a", "b", "c"].randomElement(using: &rng) ?? "a")
        case 3: _ = try? host.perform(.wait(milliseconds: 50))
        case 4: _ = try? host.setModifiers(Bool.random(using: &rng) ? [] : [.option])
        case 5:
          _ = try? host.moveOutside(
            accepting: [Bool.random(using: &rng) ? "public.item" : "public.image"],
            operation: Bool.random(using: &rng) ? .copy : .move)
        default: _ = try? host.movePointer(to: Point(x: 5000, y: 5000))
        }
        guard let step = host.lastStep else { continue }
        let fresh = step.announce(on: host.currentBoard, itemNames: host.engine.announcements.itemNames)
        #expect(step.announcement == (fresh.isEmpty ? nil : fresh), "\(step.action)")
        checked += 1
      }
      if Bool.random(using: &rng) { _ = try? host.cancel() } else { _ = try? host.drop() }
    }
    #expect(checked > 500)
  }
}

extension SentenceMemoTests {
  /// A hostile rule's indexes (huge, negative, NaN, infinite) and names of a megabyte go
  /// into the sentences reused between steps as they would into fresh ones.
  @Test("hostile indexes and names are said the same whether a sentence is reused or made afresh")
  func hostileValues() throws {
    let host = try makeHost(
      rules: """
        local indexes = { math.maxinteger, math.mininteger, -1, 0, 1e300, 0/0, math.huge, 2.5 }
        local calls = 0
        return { day = {
          dropUpdated = function(info, day)
            calls = calls + 1
            if calls % 3 == 0 then day:set("name", string.rep("N", 1 << 20) .. calls) end
            return { operation = "move", index = indexes[calls % #indexes + 1] }
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a"], type: "day", items: ["a": ["one"]]), items: [textItem("one")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("one")]))
    for _ in 0..<40 {
      _ = try? host.moveOver("a")
      guard let step = host.lastStep else { continue }
      let fresh = step.announce(on: host.currentBoard, itemNames: host.engine.announcements.itemNames)
      #expect(step.announcement == (fresh.isEmpty ? nil : fresh))
      #expect((step.announcement?.count ?? 0) < 200)
    }
    _ = try? host.cancel()
  }
}
