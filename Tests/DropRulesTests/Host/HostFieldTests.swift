import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// The host objects' fields, declared once (``TargetFields``, ``ItemFields``,
/// ``InfoFields``) and read by api.lua through one reader: what a declaration promises is
/// what a rule reads.
@Suite("Declared host fields")
struct HostFieldTests {
  @Test("each declaration is consistent: unique names, and a shape that gives the Lua type it declares")
  func declarationsAreConsistent() {
    func check<Subject>(_ fields: [HostField<Subject>], _ kind: String) {
      #expect(Set(fields.map(\.name)).count == fields.count, "\(kind): a field declared twice")
      for field in fields {
        let type = field.luaType
        switch field.shape {
        case .item: #expect(type == "droprules.Item?", "\(kind).\(field.name)")
        case .target: #expect(type == "droprules.Target?", "\(kind).\(field.name)")
        case .items: #expect(type.hasPrefix("droprules.Item[]"), "\(kind).\(field.name)")
        case .data: #expect(type.hasPrefix("table<string, any>"), "\(kind).\(field.name)")
        case .names, .table: #expect(!type.hasSuffix("?") || field.shape == .table, "\(kind).\(field.name)")
        case .value: #expect(!type.hasPrefix("droprules.Item") && !type.hasPrefix("droprules.Target"))
        }
        #expect(!field.doc.isEmpty && !field.doc.contains("\n"), "\(kind).\(field.name): one doc line")
      }
    }
    check(TargetFields.all, "target")
    check(ItemFields.all, "item")
    check(InfoFields.call, "info")
    check(InfoFields.drag, "info")
    let info = Set(InfoFields.call.map(\.name)).intersection(InfoFields.drag.map(\.name))
    #expect(info.isEmpty, "a field of info is both the call's and the drag's: \(info)")
  }

  @Test("target.scroll reads the target's offset, read-only, whole coordinates as integers")
  func scroll() throws {
    var targets = row(["a", "b"])
    targets[1].scroll = Point(x: 0, y: 120.5)
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local other = info.board:target("b")
          print(target.scroll.x, target.scroll.y, math.type(target.scroll.y), other.scroll.y, other.scroll[2])
          print(select(2, pcall(function() target.scroll.y = 1 end)))
          return "copy"
        end } }
        """, targets: targets)
    try attack.dragOverA()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed.first == "0\t0\tinteger\t120.5\t120.5")
    #expect(attack.printed.last?.contains("target.scroll (read-only)") == true, "\(attack.printed)")
  }

  @Test("40,000 reads of a root target's nil parent fit the default budget: the host is asked once")
  func manyNilParentReads() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local found = 0
          for _ = 1, 40000 do if target.parent ~= nil then found = found + 1 end end
          print(found)
          return "copy"
        end } }
        """)
    try attack.dragOverA()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["0"])
  }

  @Test("a nil field read before the board changed is read again after: a parent given later shows")
  func nilFieldReadAgainAfterChange() throws {
    let attack = try RuleAttack(
      rules: """
        local kept
        return { box = { dropUpdated = function(info, target)
          kept = kept or info.items[1]
          print(tostring(kept.container and kept.container.id), tostring(kept.index))
          target:insert(kept)
          print(kept.container.id, kept.index)
          return "copy"
        end } }
        """)
    try attack.dragOverA()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["nil\tnil", "a\t1"])
  }

  @Test("a kept item's every field raises once it left the board, its place too, at the rule's line")
  func goneItemRaises() throws {
    let attack = try RuleAttack(
      rules: """
        local kept
        return { box = { dropUpdated = function(info)
          if kept == nil then kept = info.items[1] return "copy" end
          for _, name in ipairs({ "name", "types", "container", "index", "opens", "data" }) do
            print(name, select(2, pcall(function() return kept[name] end)))
          end
          return "copy"
        end } }
        """)
    try attack.dragOverA()
    // Another drag, of another item: `x` has left the board.
    try attack.host.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    try attack.host.moveOver("a")
    try attack.host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed.count == 6)
    for line in attack.printed {
      #expect(line.contains("rules.lua:5: item 'x' is no longer on the board"), "\(line)")
    }
  }
}
