import DropRules
import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel

/// Reads of info in large drags, and after staged changes, fit the default budget: the
/// read-through never rebuilds what it need not.
@Suite("Info read-through attacks: large drags and staged changes")
struct InfoLargeDragAttackTests {
  @Test("a drag of 20,000 outside items: 100,000 reads of info.source (nil) fit the default budget")
  func manyNilSourceReads() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info)
          local found = 0
          for _ = 1, 100000 do if info.source ~= nil then found = found + 1 end end
          print(found, #info.items)
          return "copy"
        end } }
        """, limits: LuaLimits(maxTime: .seconds(10)))
    let host = attack.host
    let items = (0..<20_000).map { DraggedItem.external(textItem("x\($0)")) }
    try host.beginDrag(DragRequest(items: items))
    try host.moveOver("a")
    try host.cancel()
    // info.source is fixed for the drag (nil here): a miss in the backing that its reader
    // answers without asking the host.
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["0\t20000"])
  }

  @Test("60,000 reads of a per-call info field that is nil (info.outcome) fit the default budget: no host call each")
  func manyNilOutcomeReads() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info)
          local found = 0
          for _ = 1, 60000 do if info.outcome ~= nil then found = found + 1 end end
          print(found)
          return "copy"
        end } }
        """, limits: LuaLimits(maxTime: .seconds(10)))
    try attack.dragOverA()
    // The call's fields are read from the host once a call and kept until the next
    // begins: a read of a nil one is the backing's __index and two table reads, about 14
    // instructions a loop turn (7 for a nil field fixed for the drag, such as source).
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["0"])
  }

  @Test("a drop that stages one change per item and reads info.items after each reads the same items every time")
  func stageThenReadItemsIsCorrect() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target)
            local wrong = 0
            for i = 1, #info.items do
              local item = info.items[i]
              target:insert(item)
              if #target.items ~= i or info.items[i] ~= item or #info.items ~= 20 or item.container ~= target then
                wrong = wrong + 1
              end
            end
            print(wrong, #target.items)
            return true
          end,
        } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: (0..<20).map { .external(textItem("x\($0)")) }))
    try host.moveOver("a")
    #expect(try host.drop() == .performed)
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["0\t20"])
    #expect(host.board.target("a")?.items.count == 20)
  }

  @Test("a drop of 500 items that inserts them one by one, reading info.items each time, fits the default budget")
  func stageThenReadItemsCost() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target)
            for i = 1, #info.items do target:insert(info.items[i]) end
            return true
          end,
        } }
        """, limits: LuaLimits(maxTime: .seconds(20)))
    let host = attack.host
    try host.beginDrag(DragRequest(items: (0..<500).map { .external(textItem("x\($0)")) }))
    try host.moveOver("a")
    let outcome = try host.drop()
    // Every board change moves the ReadVersion, but info.items is fixed for the drag:
    // nothing rebuilds the 500 item objects on the rule's budget.
    #expect(outcome == .performed, "\(attack.brief)")
    #expect(host.board.target("a")?.items.count == 500)
  }

  @Test("in a drag of 20,000 items, ten staged changes each followed by a read of info.source fit the default budget")
  func fewChangesThenReadsInAHugeDrag() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target)
            local fromBoard = 0
            for n = 1, 10 do
              target:set("n", n)
              if info.source ~= nil then fromBoard = fromBoard + 1 end
            end
            print(fromBoard, target.data.n)
            return true
          end,
        } }
        """, limits: LuaLimits(maxTime: .seconds(20)))
    let host = attack.host
    try host.beginDrag(DragRequest(items: (0..<20_000).map { .external(textItem("x\($0)")) }))
    try host.moveOver("a")
    let outcome = try host.drop()
    // As the 500-item drop above: no read rebuilds the items.
    #expect(outcome == .performed, "\(attack.brief)")
    #expect(attack.printed == ["0\t10"])
  }

  @Test("after a modifier change, reading info.modifiers in a large drag costs the rule little")
  func modifierReadInALargeDrag() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { performDrop = function() return true end, dropUpdated = function(info)
          if info.modifiers.option then return "copy" end
          return "move"
        end } }
        """, limits: LuaLimits(maxInstructions: 5_000))
    let host = attack.host
    let items = (0..<2_000).map { DraggedItem.external(textItem("x\($0)")) }
    try host.beginDrag(DragRequest(items: items, allowedOperations: [.copy, .move]))
    #expect(try host.moveOver("a") == .move, "the first read is the host's work")
    let afterChange = try host.setModifiers([.option])
    try host.cancel()
    // Reading the modifiers again asks the host for them alone, not for the 2,000 items.
    #expect(afterChange == .copy)
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
  }
}
