import DropRules
import DropRulesHostTestSupport
import DropRulesLua
import DropRulesModel
import DropRulesTestSupport

/// The harness the attacks on the host share: a host with the attacking rules loaded on
/// a row of targets, the drag most attacks make, and what the rules printed and raised.
///
/// ```swift
/// let attack = try RuleAttack(rules: "return { box = { dropUpdated = function(info) ... end } }")
/// try attack.dragOverA()
/// #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
/// #expect(attack.printed == ["..."])
/// ```
struct RuleAttack {
  /// The folder of the rule files, kept as long as the host.
  let directory: TemporaryDirectory
  /// The host the rules run in; attacks that need other steps drive it themselves.
  let host: RuleHost

  /// A host with `rules` loaded on `targets` (by default one box, `a`) holding `items`.
  init(
    rules: String, targets: [DropTarget] = row(["a"]), items: [DragItem] = [], limits: LuaLimits = LuaLimits()
  ) throws {
    directory = try TemporaryDirectory()
    host = try makeHost(rules: rules, targets: targets, items: items, directory: directory, limits: limits)
  }

  /// A host with several rule files loaded in order.
  init(
    files: [(name: String, source: String)], targets: [DropTarget], items: [DragItem], limits: LuaLimits = LuaLimits()
  ) throws {
    directory = try TemporaryDirectory()
    host = try makeHost(files: files, targets: targets, items: items, directory: directory, limits: limits)
  }

  /// A source `a` holding `x` (plain text) and `y` (a PNG), and an empty target `b`.
  static func sourceAndTarget() -> (targets: [DropTarget], items: [DragItem]) {
    let png = DragItem(id: "y", name: "Y", representations: [Representation(type: "public.png", payload: "png")])
    return (row(["a", "b"], items: ["a": ["x", "y"]]), [textItem("x"), png])
  }

  /// The drag most attacks make: the external item `x` over `a`, then cancelled.
  func dragOverA() throws {
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.cancel()
  }

  /// Everything the rules printed during the last drag, in order.
  var printed: [String] { host.printedLines }

  /// The rule errors of the host.
  var diagnostics: [Diagnostic] { host.diagnostics }

  /// The first line of the first few diagnostics, cut short, for failure messages.
  var brief: String { Self.brief(diagnostics) }

  /// The first line of the first `count` of `diagnostics`, cut short.
  static func brief(_ diagnostics: [Diagnostic], _ count: Int = 2) -> String {
    diagnostics.prefix(count).map { String($0.message.prefix(160)) }.joined(separator: " | ")
  }
}
