import DropRules
import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel

/// Points store only `x` and `y` and read `[1]` and `[2]` from them: every way a rule
/// reads, walks, stores or keeps one.
@Suite("Info read-through attacks: points")
struct InfoPointAttackTests {
  @Test("#, ipairs, table.unpack, table.concat and indexing read a point's x and y")
  func pointsAsSequences() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info)
          local p = info.location
          local viaIpairs = {}
          for index, value in ipairs(p) do viaIpairs[index] = value end
          local x, y, z = table.unpack(p)
          print(#p, #viaIpairs, x, y, tostring(z), table.concat(p, ","), p[1] == p.x, p[2] == p.y,
            tostring(p[0]), tostring(p[3]), tostring(p[1.0] == p.x), tostring(p["1"]), select("#", table.unpack(p)),
            info.globalLocation[1], info.globalLocation[2])
          return "copy"
        end } }
        """, targets: row(["a", "b"]))
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.movePointer(to: Point(x: 130, y: 25))
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["2\t2\t30.0\t25.0\tnil\t30.0,25.0\ttrue\ttrue\tnil\tnil\ttrue\tnil\t2\t130.0\t25.0"])
  }

  @Test("pairs and next over a point give [1] and [2] as well as x and y, as the reference says of views")
  func pointsUnderPairs() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info)
          local copy, count = {}, 0
          for key, value in pairs(info.location) do copy[key] = value; count = count + 1 end
          local viaNext = 0
          for _ in next, info.location do viaNext = viaNext + 1 end
          print(count, viaNext, tostring(copy[1]), tostring(copy[2]), #copy)
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.movePointer(to: Point(x: 30, y: 25))
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    // A point stores x and y only; its view walks x, y, 1, 2 (api.lua's pointNext).
    #expect(attack.printed == ["4\t4\t30.0\t25.0\t2"])
  }

  @Test("a point stored as data with target:set keeps what indexing it gave")
  func pointsStoredAsData() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local ok, message = pcall(target.set, target, "at", info.location)
          local stored = target.data.at
          print(tostring(ok), stored and tostring(stored.x) or tostring(message), stored and tostring(stored[1]) or "-")
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.movePointer(to: Point(x: 30, y: 25))
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    // A point is {x, y, [1], [2]} to a copy, as to a read: storing it raises (a table
    // stored as data cannot mix a list part and named keys), as it always did.
    #expect(attack.printed == ["false\ttarget:set: a table stored as data cannot mix a list part and named keys\t-"])
  }

  @Test("NaN, infinite and huge coordinates reach handlers as numbers and crash nothing")
  func nanAndHugeCoordinates() throws {
    let targets = [
      DropTarget(id: "a", type: "box", frame: Rect(x: 0, y: 0, width: 100, height: 100), items: ["x"]),
      DropTarget(
        id: "huge", type: "box", frame: Rect(x: -1.7e308, y: -1.7e308, width: 1.79e308, height: 1.79e308),
        axis: .vertical, itemExtent: 1e-300),
      DropTarget(id: "nan", type: "box", frame: Rect(x: .nan, y: .nan, width: 100, height: 100)),
    ]
    let attack = try RuleAttack(
      rules: """
        local function show(info)
          local p = info.location
          local function n(v) if v ~= v then return "nan" end return string.format("%.3g", v) end
          return n(p.x) .. "," .. n(p[2]) .. "," .. #p .. "," .. n(info.globalLocation[1]) .. "," .. tostring(info.index)
        end
        return { box = {
          dropUpdated = function(info) print("u", show(info)); return "copy" end,
          dragEnded = function(info) print("e", show(info)) end,
        } }
        """, targets: targets, items: [textItem("x")])
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.movePointer(to: Point(x: 1e300, y: 1e300))
    try host.movePointer(to: Point(x: .infinity, y: -.infinity))
    _ = try? host.moveOver("nan")
    try host.movePointer(to: Point(x: .nan, y: .nan))
    try host.cancel()
    #expect(attack.printed.contains { $0.hasPrefix("u\t1.7e+308,1.7e+308,2,1e+300,") }, "\(attack.printed)")
    #expect(attack.printed.last == "e\tnan,nan,2,nan,nil", "\(attack.printed)")
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
  }

  @Test("a point kept from one drag does not go on reading that drag's pointer in the next")
  func keptPointInTheNextDrag() throws {
    let attack = try RuleAttack(
      rules: """
        local kept
        return { box = { dropUpdated = function(info)
          kept = kept or info.location
          local ok, x = pcall(function() return kept.x end)
          print(tostring(ok), tostring(x):match("drag that has ended") or tostring(x), info.location.x)
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.movePointer(to: Point(x: 10, y: 10))
    try host.movePointer(to: Point(x: 20, y: 10))
    try host.cancel()
    #expect(attack.printed == ["true\t10.0\t10.0", "true\t20.0\t20.0"], "within a drag a kept point is live")
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    try host.movePointer(to: Point(x: 70, y: 10))
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    // The kept point is emptied at the end of its drag, as its info is.
    #expect(
      attack.printed == ["false\tdrag that has ended\t70.0"] || attack.printed == ["true\t70.0\t70.0"],
      "\(attack.printed)")
  }
}
