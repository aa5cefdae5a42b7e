import DropRules
import DropRulesModel

/// The host objects a handler is given: `info`, items, targets, the board, and the
/// small read-only tables inside them.
extension LuaAPIDescription {
  typealias Param = Parameter
  typealias Returns = Result

  /// A method's `types` argument: one type identifier or a list of them.
  static let typesParameter = Param("types", "string|string[]", "a type identifier or a list of them")

  /// The fields the host declares for a kind of object (``HostField``), as members.
  static func declared<Subject>(_ fields: [HostField<Subject>]) -> [Member] {
    fields.map { .field($0.name, $0.luaType, $0.doc) }
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
      + declared(InfoFields.call) + declared(InfoFields.drag)
      + [
        .method(
          "hasItemsConforming",
          Signature(
            [typesParameter],
            returns: [Returns("boolean", "", "")]),
          "Whether any dragged item has a representation conforming to one of `types`."),
        .method(
          "itemProviders",
          Signature(
            [typesParameter],
            returns: [Returns("droprules.Item[]", "", "a new plain list")]),
          "The dragged items with a representation conforming to one of `types`, in drag order."),
      ])

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
      + declared(ItemFields.all)
      + [
        .method(
          "conformsTo",
          Signature(
            [typesParameter],
            returns: [Returns("boolean", "", "")]),
          "Whether one of its representations conforms to one of `types`."),
        .method(
          "set",
          Signature([
            Param("key", "string", "the data key"),
            Param(
              "value", "any", "JSON-like data: nil, boolean, number, string, or a table of them; nil removes the key"),
          ]),
          "Changes one key of `item.data`, staged like `target:set`: committed with the drop, rolled back with it."),
        .method(
          "copy", Signature(returns: [Returns("droprules.Item", "", "the copy, with a fresh id `ID-copyN`")]),
          "A detached copy of the item; insert it somewhere with `target:insert`, or it is dropped with the drag."),
      ])

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
      + declared(TargetFields.all)
      + [
        .method(
          "insert",
          Signature([
            Param("items", "droprules.Item|droprules.Item[]", "one item, or a list that goes in together, in order"),
            Param("index", "integer?", "the gap to insert at, 1 to #items + 1; nil appends; clamped"),
          ]),
          """
          Moves board items here, or adds external and copied ones. The gap is counted in \
          the list as it is now; the host does the removal shift, so moving an item next to \
          itself changes nothing. Raises on a NaN or infinite index.
          """),
        .method(
          "remove", Signature([Param("item", "droprules.Item", "an item this target holds")]),
          "Removes an item from this target (it leaves the board)."),
        .method(
          "set",
          Signature([
            Param("key", "string", "the data key"),
            Param(
              "value", "any", "JSON-like data: nil, boolean, number, string, or a table of them; nil removes the key"),
          ]),
          "Changes one key of `target.data`."),
        .method(
          "setForDrag",
          Signature([
            Param("key", "string", "the data key"),
            Param(
              "value", "any", "JSON-like data: nil, boolean, number, string, or a table of them; nil hides the key"),
          ]),
          """
          Changes one key of `target.data` for this drag only: every handler of the drag \
          reads it, and it is gone when the drag ends, performed or not, so hover \
          highlights and placeholders need no cleanup (SwiftUI's `isTargeted`). It is never \
          committed, and a handler that fails has its own calls undone.
          """),
      ])

  static let board = Class(
    name: "droprules.Board", variable: "board",
    doc: "The board: every target and item, by id (`info.board`).",
    members: [
      .field("kind", "\"board\"", "What this object is: always `\"board\"`."),
      .method(
        "target",
        Signature(
          [Param("id", "string", "a target id")], returns: [Returns("droprules.Target?", "", "nil when no such target")]
        ),
        "The target with this id."),
      .method(
        "item",
        Signature(
          [Param("id", "string", "an item id")], returns: [Returns("droprules.Item?", "", "nil when no such item")]),
        "The item with this id, on the board or dragged in from outside."),
    ])

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
