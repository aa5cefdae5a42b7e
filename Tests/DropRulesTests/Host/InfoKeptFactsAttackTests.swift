import DropRules
import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel

/// Attacks on `info` reading the drag from the engine when first asked (`host.dragFields`,
/// api.lua's `infoReader`): an info kept across the changes of a drag reads what holds
/// now, under any budget or cap. Every attempt is kept: a test that holds documents the
/// defence. The harness is ``RuleAttack``; the other attacks on info are in
/// `InfoCallbackAttackTests`, `InfoHiddenKeyAttackTests`, `InfoPointAttackTests`,
/// `InfoAcrossDragsAttackTests` and `InfoLargeDragAttackTests`.
@Suite("Info read-through attacks: a kept info and the facts that change during a drag")
struct InfoKeptFactsAttackTests {
  @Test("a change that fails part-way, or a handler that fails after a change, leaves no other file a stale item list")
  func failedChangeLeavesNoStaleList() throws {
    // "take" reads its source's list, tries a list insert that names an unknown item
    // (refused whole), then moves x and fails. "watch", another file, reads the
    // source's list on every hover and prints it beside what it read the first time.
    let take = """
      return { take = { dropUpdated = function(info, target)
        local source = info.source
        print("take before", #source.items)
        print("take refused", pcall(target.insert, target, { info.items[1], "missing" }) == false, #source.items)
        target:insert(info.items[1])
        print("take after", #source.items)
        error("fails after its change")
      end } }
      """
    let watch = """
      return { watch = { dropUpdated = function(info, target)
        local ids = {}
        for _, item in ipairs(info.source.items) do ids[#ids + 1] = item.id end
        print("watch", table.concat(ids, ","))
        return "move"
      end } }
      """
    var targets = row(["a"], type: "watch", items: ["a": ["x", "y"]])
    targets += [
      DropTarget(id: "b", type: "take", frame: Rect(x: 100, y: 0, width: 100, height: 100)),
      DropTarget(id: "w", type: "watch", frame: Rect(x: 200, y: 0, width: 100, height: 100)),
    ]
    let attack = try RuleAttack(
      files: [("take.lua", take), ("watch.lua", watch)], targets: targets, items: [textItem("x"), textItem("y")])
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.board("x")]))
    _ = try host.moveOver("w")
    _ = try host.moveOver("b")
    _ = try host.moveOver("w")
    let truth = host.currentBoard.items(in: "a").joined(separator: ",")
    try host.cancel()
    let lines = attack.printed
    #expect(lines.first == "watch\tx,y", "\(lines)")
    #expect(lines.contains("take refused\ttrue\t2"), "\(lines)")
    #expect(lines.contains("take after\t1"), "\(lines)")
    // Whatever the engine holds after the failed handler, the other file reads just that.
    #expect(lines.last == "watch\t\(truth)", "\(lines) truth: \(truth)")
    #expect(host.board.items(in: "a") == ["x", "y"])
  }

  @Test("a kept info reads the modifiers of now after every change, while a kept modifiers set stays a snapshot")
  func keptInfoAfterModifierChanges() throws {
    let attack = try RuleAttack(
      rules: """
        local kept, keptSet
        return { box = { performDrop = function() return true end, dropUpdated = function(info)
          kept = kept or info
          keptSet = keptSet or info.modifiers
          print(tostring(kept.modifiers.option), tostring(kept.modifiers.shift), tostring(keptSet.option),
            tostring(kept == info))
          return kept.modifiers.option and "copy" or "move"
        end } }
        """, limits: LuaLimits(maxInstructions: 2_000))
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], allowedOperations: [.copy, .move]))
    #expect(try host.moveOver("a") == .move)
    #expect(try host.setModifiers([.option]) == .copy)
    #expect(try host.setModifiers([.option, .shift]) == .copy)
    #expect(try host.setModifiers([]) == .move)
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(
      attack.printed == [
        "nil\tnil\tnil\ttrue", "true\tnil\tnil\ttrue", "true\ttrue\tnil\ttrue", "nil\tnil\tnil\ttrue",
      ])
  }

  @Test("a kept info reads the allowed operations of now after the pointer leaves the board and comes back")
  func keptInfoAfterOutsideAndBack() throws {
    let setup = RuleAttack.sourceAndTarget()
    let attack = try RuleAttack(
      rules: """
        local kept
        local function ops(info)
          return (info.allowedOperations.copy and "c" or "-") .. (info.allowedOperations.move and "m" or "-")
        end
        return { box = {
          dragOperations = function(info)
            kept = kept or info
            print("ops", tostring(info.outside), ops(kept))
            if info.outside then return { "copy", "move" } end
            return { "copy" }
          end,
          performDrop = function() return true end, dropUpdated = function(info)
            print("updated", ops(kept), ops(info))
            return "move"
          end,
          dragEnded = function(info)
            print("ended", ops(kept), tostring(info.outside))
          end,
        } }
        """, targets: setup.targets, items: setup.items)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.copy, .move]))
    #expect(try host.moveOver("b") == .copy, "the board allows copy only")
    #expect(try host.moveOutside(accepting: ["public.plain-text"], operation: .move) == .move)
    #expect(try host.moveOver("b") == .copy, "back on the board: copy only again")
    #expect(try host.moveOutside(accepting: ["public.plain-text"], operation: .move) == .move)
    #expect(try host.drop() == .performed)
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(
      attack.printed == [
        // info.outside is false on the board from the first call: the mirror it replaced
        // wrote it only once it changed, so it read nil until the pointer first left.
        "ops\tfalse\tcm", "updated\tc-\tc-", "ops\ttrue\tc-", "updated\tc-\tc-", "ops\ttrue\tc-",
        "ended\tcm\ttrue",
      ])
  }

  @Test("dragEnded after a drop into another app reads info.taken through a kept info, and the next drag has none")
  func takenAfterADropOutside() throws {
    let setup = RuleAttack.sourceAndTarget()
    let attack = try RuleAttack(
      rules: """
        local kept, previous
        local function ids(list)
          if list == nil then return "nil" end
          local out = {}
          for _, item in ipairs(list) do out[#out + 1] = item.id end
          return table.concat(out, ",")
        end
        return { box = {
          dropUpdated = function(info) kept = info; return "move" end,
          performDrop = function() return true end,
          dragEnded = function(info)
            local stale = previous and select(2, pcall(function() return previous.taken end)) or "none"
            print(ids(info.taken), ids(kept.taken), tostring(kept == info), #info.items, tostring(stale):match("drag that has ended") or tostring(stale))
            previous = info
          end,
        } }
        """, targets: setup.targets, items: setup.items)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.board("x"), .board("y")], allowedOperations: [.copy, .move]))
    try host.moveOver("b")
    try host.moveOutside(accepting: ["public.plain-text"], operation: .copy)
    #expect(try host.drop() == .performed)
    #expect(attack.printed == ["x\tx\ttrue\t2\tnone"])
    try host.beginDrag(DragRequest(items: [.board("x"), .board("y")], allowedOperations: [.copy, .move]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(attack.printed == ["nil\tnil\ttrue\t2\tdrag that has ended"])
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
  }

  @Test(
    "under every instruction budget from 40 to 2,000 a kept info answers with the modifiers of now or fails, never with old ones",
    arguments: [40, 41, 45, 50, 60, 75, 100, 150, 200, 300, 500, 1_000, 2_000])
  func tinyBudgetsNeverReadOldModifiers(budget: Int) throws {
    let attack = try RuleAttack(
      rules: """
        local kept
        return { box = { dropUpdated = function(info)
          kept = kept or info
          if kept.modifiers.option then return "copy" end
          return "move"
        end } }
        """, limits: LuaLimits(maxInstructions: budget))
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], allowedOperations: [.copy, .move]))
    var answers: [(Proposal, Proposal)] = [(try host.moveOver("a"), .move)]
    for step in 0..<12 {
      let option = step % 2 == 0
      answers.append((try host.setModifiers(option ? [.option] : []), option ? .copy : .move))
      answers.append((try host.movePointer(to: Point(x: 40 + Double(step), y: 50)), option ? .copy : .move))
    }
    try host.cancel()
    for (index, (got, want)) in answers.enumerated() {
      #expect(got == want || got == .forbidden, "step \(index): \(got), want \(want) (budget \(budget))")
    }
    for diagnostic in attack.diagnostics {
      #expect(diagnostic.message.contains("instruction budget"), "\(diagnostic.message.prefix(160))")
    }
    if budget >= 200 { #expect(attack.diagnostics.isEmpty, "\(attack.brief)") }
  }

  @Test(
    "under every memory cap from too small to load to roomy, a kept info answers with the modifiers of now or fails")
  func tinyMemoryNeverReadsOldModifiers() throws {
    let rules = """
      local kept
      return { box = { dropUpdated = function(info)
        kept = kept or info
        local _ = #kept.items
        if kept.modifiers.option then return "copy" end
        return "move"
      end } }
      """
    var refused = 0
    var failed = 0
    var clean = 0
    // A runtime with these rules holds about 90 KB once loaded, 150 KB in a drag of 50.
    for cap in stride(from: 64 * 1024, through: 400 * 1024, by: 3 * 1024) {
      let attack: RuleAttack
      do {
        attack = try RuleAttack(rules: rules, limits: LuaLimits(maxMemory: cap))
      } catch {
        refused += 1  // too small to load the rules at all: not this attack
        continue
      }
      let host = attack.host
      let items = (0..<50).map { DraggedItem.external(textItem("x\($0)")) }
      try host.beginDrag(DragRequest(items: items, allowedOperations: [.copy, .move]))
      var answers: [(Proposal, Proposal)] = [(try host.moveOver("a"), .move)]
      for step in 0..<8 {
        let option = step % 2 == 0
        answers.append((try host.setModifiers(option ? [.option] : []), option ? .copy : .move))
      }
      try host.cancel()
      for (index, (got, want)) in answers.enumerated() {
        #expect(got == want || got == .forbidden, "cap \(cap), step \(index): \(got), want \(want)")
      }
      for diagnostic in attack.diagnostics {
        #expect(
          diagnostic.message.contains("memory limit") || diagnostic.message.contains("could not make"),
          "cap \(cap): \(diagnostic.message.prefix(160))")
      }
      if attack.diagnostics.isEmpty { clean += 1 } else { failed += 1 }
    }
    #expect(failed > 0, "no cap put the reader under pressure (\(refused) refused, \(clean) clean)")
    #expect(clean > 0, "no cap was roomy enough (\(refused) refused, \(failed) failed)")
  }
}
