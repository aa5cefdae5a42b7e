import DropRules
import DropRulesModel

/// The host objects a handler is given: `info`, items, targets, the board, and the
/// small read-only tables inside them.
extension LuaAPIDescription {
  typealias Param = Parameter
  typealias Returns = Result

  /// The fields the host declares for a kind of object (``HostField``), as members.
  static func declared<Subject>(_ fields: [HostField<Subject>]) -> [Member] {
    fields.map { .field($0.name, $0.luaType, $0.doc) }
  }

  /// The methods the host declares for a kind of object (``HostMethod``), as members.
  static func declared(_ methods: [HostMethod]) -> [Member] {
    methods.map { method in
      let parameters = method.parameters.map { Param($0.name, $0.luaType, $0.doc) }
      let returns = method.returns.map { [Returns($0.luaType, "", $0.doc)] } ?? []
      return .method(method.name, Signature(parameters, returns: returns), method.doc)
    }
  }

  static let info = Class(
    name: "droprules.Info", variable: "info",
    doc: """
      The drag, as a handler sees it. One object per drag, updated in place between \
      calls; read-only (a write raises an error). After the drag ends it raises \
      `this info belongs to a drag that has ended`.
      """,
    members: [
      .field("kind", "\"info\"", "What this object is: always `\"info\"`."),
      .field("items", "droprules.Item[]", "Every dragged item, in drag order (read-only list)."),
      .field(
        "location", "droprules.Point",
        "The pointer in the target's own coordinates (its frame's origin is 0, 0)."),
      .field("globalLocation", "droprules.Point", "The pointer in board coordinates."),
      .field(
        "source", "droprules.Target?",
        "The target the first dragged board item came from; nil when no dragged item is on the board."),
      .field("board", "droprules.Board", "The whole board, to reach targets and items by id."),
    ]
      + declared(InfoFields.call) + declared(InfoFields.drag) + declared(InfoMethods.all))

  static let item = Class(
    name: "droprules.Item", variable: "item",
    doc: """
      A dragged or board item. One object per id (`==` compares identity). Read-only; \
      a kept item reads the board as it is now and raises once its id has left the board.
      """,
    members: [
      .field("kind", "\"item\"", "What this object is: always `\"item\"`."),
      .field("id", "string", "The item's id."),
    ]
      + declared(ItemFields.all) + declared(ItemMethods.all))

  static let target = Class(
    name: "droprules.Target", variable: "target",
    doc: """
      A drop target on the board. One object per id. Fields read the staged board (a \
      change is visible at once); the board changes only through the methods.
      """,
    members: [
      .field("kind", "\"target\"", "What this object is: always `\"target\"`."),
      .field("id", "string", "The target's id."),
    ]
      + declared(TargetFields.all) + declared(TargetMethods.all))

  static let board = Class(
    name: "droprules.Board", variable: "board",
    doc: "The board: every target and item, by id (`info.board`).",
    members: [
      .field("kind", "\"board\"", "What this object is: always `\"board\"`.")
    ] + declared(BoardMethods.all))

  static let point = Class(
    name: "droprules.Point", variable: "point",
    doc: "A pointer position (`info.location`, `info.globalLocation`), read-only.",
    members: [
      .field("x", "number", "Horizontal coordinate."), .field("y", "number", "Vertical coordinate."),
      .field("[1]", "number", "The same as `x`."), .field("[2]", "number", "The same as `y`."),
    ])

  static let frame = Class(
    name: "droprules.Frame", variable: "frame",
    doc: "A target's frame (`target.frame`), read-only; whole coordinates are integers.",
    members: [
      .field("x", "number", "Left edge."), .field("y", "number", "Top edge."),
      .field("width", "number", "Width."), .field("height", "number", "Height."),
      .field("[1]", "number", "The same as `x`."), .field("[2]", "number", "The same as `y`."),
      .field("[3]", "number", "The same as `width`."), .field("[4]", "number", "The same as `height`."),
    ])

  static let modifiers = Class(
    name: "droprules.Modifiers", variable: "info.modifiers",
    doc: "The pressed modifier keys, a read-only set: a key is `true` when pressed, else absent.",
    members: Modifier.allCases.map { .field($0.rawValue, "true?", "True while \($0.rawValue) is pressed.") })

  static let operationSet = Class(
    name: "droprules.OperationSet", variable: "info.allowedOperations",
    doc: "Allowed operations, a read-only set: a key is `true` when allowed, else absent.",
    members: DragOperation.allCases.map { .field($0.rawValue, "true?", "True when \($0.rawValue) is allowed.") })
}
