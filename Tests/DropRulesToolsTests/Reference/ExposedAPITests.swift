import DropRulesHostTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

/// The API description against what the sandbox really exposes: every global of a rule
/// file, every key reachable on `info`, items, targets, the board and their read-only
/// tables, and `droprules.*`, listed at run time by rule code itself.
@Suite("The API description is what rule files see")
struct ExposedAPITests {
  /// Names to try on each kind of object: an object takes a method from its kind when
  /// first called, so a walk lists only those it used.
  static let methodNames = """
    local tried = {
      ["droprules.Item"] = { \(ItemMethods.all.map { "\"\($0.name)\"" }.joined(separator: ", ")) },
      ["droprules.Target"] = { \(TargetMethods.all.map { "\"\($0.name)\"" }.joined(separator: ", ")) },
    }

    """

  /// A rule that prints, from every handler, `what key` for each key it can reach.
  static let listingRule =
    methodNames + #"""
      local function keys(what, value)
        for key in next, value do
          print(what .. " " .. (math.type(key) and ("[" .. key .. "]") or tostring(key)))
        end
        for _, name in ipairs(tried[what] or {}) do
          if type(value[name]) == "function" then print(what .. " " .. name) end
        end
      end

      local function globals()
        for name, value in next, _G do
          print("global " .. name)
          if type(value) == "table" and name ~= "_G" then keys(name, value) end
        end
      end

      local function walk(info, target)
        globals()
        keys("droprules.Info", info)
        keys("droprules.Target", target)
        keys("droprules.Board", info.board)
        keys("droprules.Point", info.location)
        keys("droprules.Point", info.globalLocation)
        -- A point's [1] and [2] are read from x and y, not stored: listed when they read so.
        for _, point in ipairs({ info.location, info.globalLocation }) do
          if point[1] == point.x and point[2] == point.y and #point == 2 then
            print("droprules.Point [1]")
            print("droprules.Point [2]")
          end
        end
        keys("droprules.Frame", target.frame)
        keys("droprules.Modifiers", info.modifiers)
        keys("droprules.OperationSet", info.allowedOperations)
        for _, item in ipairs(info.items) do keys("droprules.Item", item) end
        for _, item in ipairs(target.items) do keys("droprules.Item", item) end
        if info.over then keys("droprules.Item", info.over) end
        for _, item in ipairs(info.taken or {}) do keys("droprules.Item", item) end
      end

      local rule = {}
      for _, name in ipairs({ "validateDrop", "dropEntered", "dropExited", "dragEnded" }) do
        rule[name] = function(info, target) walk(info, target) end
      end
      rule.dropUpdated = function(info, target) walk(info, target) return "move" end
      rule.performDrop = function(info, target) walk(info, target) return true end
      rule.dragOperations = function(info, target) walk(info, target) return nil end
      rule.canDrag = function(item, source)
        keys("droprules.Item", item)
        keys("droprules.Target", source)
        return true
      end
      return { box = rule }
      """#

  /// `what -> keys` from every handler of two drags: one dropped on the board into a
  /// target with an item extent, nested in another, with every modifier pressed; one
  /// moved out into another app. Together they set every field `info` can have.
  static func exposedKeys() throws -> [String: Set<String>] {
    let directory = try TemporaryDirectory()
    let items = ["a", "b", "c"].map(textItem)
    let outer = DropTarget(id: "outer", type: "box", frame: Rect(x: 0, y: 0, width: 300, height: 300))
    let inner = DropTarget(
      id: "inner", type: "box", frame: Rect(x: 0, y: 0, width: 100, height: 300), parent: "outer",
      items: ["a", "b", "c"], itemExtent: 50)
    let host = try makeHost(rules: listingRule, targets: [outer, inner], items: items, directory: directory)
    var printed: [String] = []
    try host.beginDrag(DragRequest(items: [.board("a")], modifiers: Set(Modifier.allCases)))
    _ = try host.movePointer(to: Point(x: 50, y: 60))
    _ = try host.drop()
    printed += host.printedLines
    try host.beginDrag(DragRequest(items: [.board("b")]))
    _ = try host.moveOutside(accepting: ["public.plain-text"], operation: .move)
    _ = try host.drop()
    printed += host.printedLines
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics)")
    var keys: [String: Set<String>] = [:]
    for line in printed {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      keys[parts[0], default: []].insert(parts[1])
    }
    // Fields an object reads from the host when asked are not in it until then.
    keys["droprules.Item", default: []].formUnion(ItemFields.all.map(\.name))
    keys["droprules.Target", default: []].formUnion(TargetFields.all.map(\.name))
    keys["droprules.Info", default: []].formUnion((InfoFields.call.map(\.name) + InfoFields.drag.map(\.name)))
    return keys
  }

  static func described(_ className: String) -> Set<String> {
    Set(LuaAPIDescription.rules.class(className)?.members.map(\.name) ?? [])
  }

  @Test(
    "every key of a host object is described, and every described key is exposed",
    arguments: [
      "droprules.Info", "droprules.Item", "droprules.Target", "droprules.Board", "droprules.Point",
      "droprules.Frame", "droprules.Modifiers", "droprules.OperationSet",
    ])
  func hostObjects(_ className: String) throws {
    let exposed = try Self.exposedKeys()[className] ?? []
    let described = Self.described(className)
    #expect(!described.isEmpty)
    #expect(exposed.subtracting(described).sorted() == [], "exposed but not described")
    #expect(described.subtracting(exposed).sorted() == [], "described but not exposed")
  }

  @Test("the globals of a rule file and the fields of its libraries are those described")
  func ruleGlobals() throws {
    let exposed = try Self.exposedKeys()
    let environment = try #require(LuaAPIDescription.rules.environment("rule"))
    #expect(Set(exposed["global"] ?? []) == Set(environment.globals.map(\.name)))
    for global in environment.globals {
      let fields: Set<String>
      switch global.kind {
      case .function: fields = []
      case .standard(let names): fields = Set(names)
      case .library(let className): fields = Self.described(className)
      }
      #expect(Set(exposed[global.name] ?? []) == fields, "fields of \(global.name)")
    }
  }

  @Test("the keys of a rule are the handlers the loader knows, accepts and the effects")
  func ruleKeys() {
    #expect(
      Self.described("droprules.Rule")
        == Set(["accepts"] + RuleEffect.allCases.map(\.rawValue) + Handler.allCases.map(\.rawValue)))
  }

  @Test("the string values of each alias are the host's own")
  func aliases() throws {
    let api = LuaAPIDescription.rules
    func values(_ alias: String) -> [String] { api.alias(alias)?.stringValues ?? [] }
    #expect(values("droprules.Proposal") == Proposal.allCases.map(\.rawValue))
    #expect(values("droprules.Operation").sorted() == DragOperation.allCases.map(\.rawValue).sorted())
    #expect(values("droprules.Outcome") == DropOutcome.allCases.map(\.rawValue))
    #expect(values("droprules.Edge") == ItemEdge.allCases.map(\.rawValue))
    #expect(values("droprules.Modifier") == Modifier.allCases.map(\.rawValue))
  }
}
