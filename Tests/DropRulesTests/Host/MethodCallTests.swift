import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// A host object's method called with a dot gets its first argument as the object; the
/// error says to use a colon, at the rule's own line, instead of complaining about the
/// argument.
@Suite("Methods called with a dot")
struct MethodCallTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Each line of `calls` runs in a handler of its own line; its error message is printed.
  func messages(_ calls: [String]) throws -> [String] {
    let attempts = calls.map { "  do local ok, message = pcall(function() \($0) end) print(message) end" }
    let rules = """
      return { box = { performDrop = function(info, target)
        local item = info.items[1]
      \(attempts.joined(separator: "\n"))
        return true
      end } }
      """
    let host = try makeHost(
      rules: rules, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    return host.printedLines
  }

  @Test("every host method names itself, the colon form and the dot form it was called with")
  func everyMethod() throws {
    // `local _ =` keeps each call from being a tail call, so the error names the rule's line.
    let calls = [
      "local _ = info.itemProviders({ 'public.text' })",
      "local _ = info.hasItemsConforming('public.text')",
      "local _ = item.copy()",
      "local _ = item.data('public.plain-text')",
      "local _ = item.conformsTo('public.text')",
      "local _ = target.insert(info.items)",
      "local _ = target.remove(item)",
      "local _ = target.set('key', 1)",
      "local _ = info.board.target('a')",
      "local _ = info.board.item('x')",
    ]
    let shown = [
      ("itemProviders", "info:itemProviders"), ("hasItemsConforming", "info:hasItemsConforming"),
      ("copy", "item:copy"), ("data", "item:data"), ("conformsTo", "item:conformsTo"),
      ("insert", "target:insert"), ("remove", "target:remove"), ("set", "target:set"),
      ("target", "info.board:target"), ("item", "info.board:item"),
    ]
    let printed = try messages(calls)
    #expect(printed.count == calls.count)
    for (offset, (method, colon)) in shown.enumerated() {
      let dot = colon.replacingOccurrences(of: ":", with: ".")
      let line = offset + 3
      #expect(
        printed[offset].hasSuffix("rules.lua:\(line): call \(method) with a colon: \(colon)(...), not \(dot)(...)"),
        "\(printed[offset])")
    }
  }

  @Test("the colon forms still work, and a wrong argument is still reported as one")
  func colonForms() throws {
    let printed = try messages([
      "print(#info:itemProviders({ 'public.text' }), info:hasItemsConforming('public.text'))",
      "print(item:conformsTo('public.text'), item:copy().id)",
      "local _ = info:itemProviders(42)",
      "local _ = target:insert(42)",
      "print(info.board:target('a').id, info.board:item('x').id)",
    ])
    // Each attempt that succeeds prints its own line, then nil for the pcall's message.
    #expect(printed[0] == "1\ttrue")
    #expect(printed[2].hasPrefix("true\tx-copy"))
    #expect(printed[4].contains("info:itemProviders expects a type identifier or a list of them, got number"))
    #expect(printed[5].contains("target:insert expects an item"))
    #expect(printed[6] == "a\tx")
  }

  @Test("a method taken off its object runs only on a real object of its kind: a forged one changes nothing")
  func forgedSelf() throws {
    let printed = try messages([
      "local set = target.set; set(item, 'k', 1)",
      "local set = target.set; set({ kind = 'target', id = 'a' }, 'k', 1)",
      "local set = target.set; set(info.board, 'k', 1)",
      "local insert = target.insert; insert(setmetatable({}, { __index = target }), info.items)",
      "print(info.board:target('a').data.k, #info.board:target('a').items)",
      "local set = target.set; set(info.board:target('a'), 'k', 2); print(info.board:target('a').data.k)",
      "print(rawget(target, 'set'), rawget(item, 'copy'))",
    ])
    for (offset, line) in printed.prefix(4).enumerated() {
      #expect(
        line.hasSuffix("rules.lua:\(offset + 3): call set with a colon: target:set(...), not target.set(...)")
          || line.hasSuffix(
            "rules.lua:\(offset + 3): call insert with a colon: target:insert(...), not target.insert(...)"),
        "\(line)")
    }
    // Each line that prints prints its own line, then nil for the pcall's message.
    #expect(printed[4] == "nil\t1", "the forged calls changed nothing")
    #expect(printed[6] == "2")
    #expect(printed[8] == "nil\tnil")
  }

  @Test("a walk of an object lists kind, id and the methods it called: none is copied into it before")
  func walkListsCalledMethods() throws {
    let printed = try messages([
      "local keys = {} for key in next, target do keys[#keys + 1] = key end table.sort(keys) print(table.concat(keys, ','))",
      "local _ = target.frame; target:set('k', 1)",
      "local keys = {} for key in next, target do keys[#keys + 1] = key end table.sort(keys) print(table.concat(keys, ','))",
    ])
    #expect(printed[0] == "id,kind")
    #expect(printed[3] == "id,kind,set")
  }
}
