import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// A host function's Swift box is released when the collector frees the closure that
/// holds it: a rule that drops every way it reached host functions and makes the
/// collector run must still find each one it kept working, and so must other files.
@Suite("Host function lifetime attacks")
struct HostFunctionLifetimeAttackTests {
  @Test("a rule drops its droprules table and churns the collector; what it kept, and another file, still work")
  func keptFunctionsSurviveCollections() throws {
    let dropper = """
      local decode, conforms = droprules.decodeJSON, droprules.conforms
      droprules.decodeJSON, droprules.encodeJSON, droprules.conforms = nil, nil, nil
      droprules = nil
      return { dropper = { dropUpdated = function(info, target)
        -- Enough garbage for several collection cycles.
        for round = 1, 40 do
          local junk = {}
          for index = 1, 2000 do junk[index] = { index } end
        end
        print("dropper", decode('{"a": 1}').a, conforms("public.png", "public.image"), target.type)
        return "copy"
      end } }
      """
    let other = """
      return { other = { dropUpdated = function(info, target)
        print("other", droprules.decodeJSON('[2]')[1], droprules.conforms("public.png", "public.data"), target.type)
        return "copy"
      end } }
      """
    let targets = [
      DropTarget(id: "d", type: "dropper", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      DropTarget(id: "o", type: "other", frame: Rect(x: 100, y: 0, width: 100, height: 100)),
    ]
    let attack = try RuleAttack(
      files: [("dropper.lua", dropper), ("other.lua", other)], targets: targets, items: [],
      limits: LuaLimits(maxInstructions: 20_000_000))
    try attack.host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    for _ in 0..<3 {
      try attack.host.moveOver("d")
      try attack.host.moveOver("o")
    }
    try attack.host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(
      attack.printed
        == Array(repeating: ["dropper\t1\ttrue\tdropper", "other\t2\ttrue\tother"], count: 3).flatMap { $0 })
  }
}
