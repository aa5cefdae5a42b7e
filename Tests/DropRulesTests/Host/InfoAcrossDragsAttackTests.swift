import DropRules
import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel

/// What a rule keeps from one drag (its info, items list, methods) raises or stays that
/// drag's in the next; one rule file reads every change another makes.
@Suite("Info read-through attacks: across drags and rule files")
struct InfoAcrossDragsAttackTests {
  @Test("info.items kept from one drag stays that drag's list in the next, its items live; the kept info raises")
  func keptItemsListInTheNextDrag() throws {
    let attack = try RuleAttack(
      rules: """
        local keptItems, keptInfo
        return { box = {
          dropUpdated = function(info, target)
            if keptItems == nil then keptItems, keptInfo = info.items, info end
            local ok, message = pcall(function() return keptInfo.items end)
            print(#keptItems, keptItems[1].id, tostring(keptItems[1].container and keptItems[1].container.id),
              tostring(ok), ok and "-" or tostring(message):match("drag that has ended"), info.items[1].id)
            return "move"
          end,
          performDrop = function(info, target) target:insert(info.items); return true end,
        } }
        """, targets: row(["a", "b"]))
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], allowedOperations: [.copy, .move]))
    try host.moveOver("a")
    #expect(try host.drop() == .performed)
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))], allowedOperations: [.copy, .move]))
    try host.moveOver("b")
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["1\tx\ta\tfalse\tdrag that has ended\ty"])
  }

  @Test("an info kept past its drag raises in the next drag's canDrag, dragOperations and dragEnded")
  func keptInfoRaisesInSourceHandlers() throws {
    let setup = RuleAttack.sourceAndTarget()
    let attack = try RuleAttack(
      rules: """
        local kept
        local function probe(label)
          if kept == nil then return end
          for _, field in ipairs({ "items", "modifiers", "allowedOperations", "source", "taken", "location", "kind" }) do
            local ok, message = pcall(function() return kept[field] end)
            if ok or not tostring(message):match("drag that has ended") then print(label, field, "did not raise") end
          end
          local ok = pcall(next, kept)
          print(label, tostring(ok), tostring(ok and next(kept)))
        end
        return { box = {
          canDrag = function() probe("canDrag"); return true end,
          dragOperations = function(info) probe("dragOperations"); kept = kept or info end,
          dropUpdated = function() return "move" end,
          dragEnded = function(info) probe("dragEnded") end,
        } }
        """, targets: setup.targets, items: setup.items)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.copy, .move]))
    try host.cancel()
    try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.copy, .move]))
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(
      attack.printed == ["canDrag\ttrue\tnil", "dragOperations\ttrue\tnil", "dragEnded\ttrue\tnil"],
      "\(attack.printed)")
  }

  @Test("methods taken from a kept info raise in the next drag rather than answer for it")
  func keptInfoMethodsInTheNextDrag() throws {
    let attack = try RuleAttack(
      rules: """
        local kept, has, providers
        return { box = { dropUpdated = function(info)
          if kept == nil then kept, has, providers = info, info.hasItemsConforming, info.itemProviders end
          local a, b = pcall(has, kept, "public.text")
          local c, d = pcall(providers, kept, "public.text")
          local e = pcall(function() return kept:hasItemsConforming("public.text") end)
          print(tostring(a), tostring(c), tostring(e), tostring(has(info, "public.text")), #providers(info, "public.text"))
          return "copy"
        end } }
        """)
    let host = attack.host
    try attack.dragOverA()
    #expect(attack.printed == ["true\ttrue\ttrue\ttrue\t1"])
    try host.beginDrag(DragRequest(items: [.external(textItem("y")), .external(textItem("z"))]))
    try host.moveOver("a")
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["false\tfalse\tfalse\ttrue\t2"])
  }

  @Test("one rule file keeps info and objects while another changes the board: the keeper reads every change")
  func twoRuleFiles() throws {
    let keeper = """
      local kept
      return { keeper = { dropUpdated = function(info)
        kept = kept or { info = info, changer = info.board:target("c"), item = info.items[1] }
        local c = kept.changer
        local ok, items = pcall(function() return #kept.info.items end)
        -- A kept item raises once it left the board, its place too (it gave nil once).
        local placed, container = pcall(function() return kept.item.container end)
        container = placed and tostring(container and container.id) or container:match("no longer on the board")
        print("keeper", #c.items, tostring(c.data.n), container,
          tostring(ok), ok and items or tostring(items):match("drag that has ended"))
        return "copy"
      end } }
      """
    let changer = """
      -- The changer may only change its own copies of what all files share.
      droprules.conforms = function() return true end
      table.concat = nil
      return { changer = {
        dropEntered = function(info, target)
          target:insert(info.items[1])
          target:set("n", (target.data.n or 0) + 1)
        end,
        dropUpdated = function() return "copy" end,
      } }
      """
    let targets = [
      DropTarget(id: "k", type: "keeper", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      DropTarget(id: "c", type: "changer", frame: Rect(x: 100, y: 0, width: 100, height: 100)),
    ]
    let attack = try RuleAttack(
      files: [("keeper.lua", keeper), ("changer.lua", changer)], targets: targets, items: [])
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("k")
    try host.moveOver("c")
    try host.moveOver("k")
    try host.moveOver("c")
    try host.moveOver("k")
    try host.cancel()
    #expect(
      attack.printed == [
        "keeper\t0\tnil\tnil\ttrue\t1", "keeper\t1\t1\tc\ttrue\t1", "keeper\t1\t2\tc\ttrue\t1",
      ])
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    try host.moveOver("k")
    try host.cancel()
    #expect(attack.printed == ["keeper\t0\tnil\tno longer on the board\tfalse\tdrag that has ended"])
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
  }
}
