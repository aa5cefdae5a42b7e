import DropRules
import DropRulesModel

/// The host objects a handler is given: `info`, items, targets, the board, and the
/// small read-only tables inside them.
extension LuaAPIDescription {
  typealias Param = Parameter
  typealias Returns = Result

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
        "index", "integer?",
        """
        The insertion gap (1 is before the first item): a step's `index`, else the gap nearest \
        the pointer in a target with an `itemExtent`; in `performDrop`, the index of a \
        `{ operation, index }` proposal comes first. Nil when there is none.
        """),
      .field(
        "hoverTime", "integer?",
        """
        Milliseconds the pointer has rested on the current target since it was entered \
        (reset on entering another); only `wait` steps pass time. Nil in a handler of any \
        other target.
        """),
      .field(
        "wouldContainItself", "boolean",
        """
        True when a drop here would put a target inside itself: a dragged item stands for this \
        target or an ancestor of it (or of the target the item under the pointer's centre \
        stands for). The host refuses such a move whatever the rule does; forbid it early.
        """),
      .field(
        "modifiers", "droprules.Modifiers",
        "The pressed modifier keys as a set: `info.modifiers.option == true`."),
      .field(
        "allowedOperations", "droprules.OperationSet",
        "What the drag and its sources allow, as a set: `info.allowedOperations.move == true`."),
      .field(
        "operation", "droprules.Operation?",
        "In `performDrop` and `dragEnded`: the operation performed (nil unless performed)."),
      .field("outcome", "droprules.Outcome?", "In the last `dropExited` and in `dragEnded`: how the drag ended."),
      .field(
        "source", "droprules.Target?",
        "The target the first dragged board item came from; nil when no dragged item is on the board."),
      .field("board", "droprules.Board", "The whole board, to reach targets and items by id."),
      .field(
        "over", "droprules.Item?",
        "In a target with an `itemExtent`: the item under the pointer, nil over empty space."),
      .field("edge", "droprules.Edge?", "Which third of `info.over` the pointer is in, along the axis."),
      .field(
        "outside", "boolean?",
        "True while the pointer is off the board, over another app (`dragOperations`, `dragEnded`)."),
      .field(
        "destination", "droprules.Target?",
        "In `dragEnded`: the target that took the drop; nil when another app or nothing took it."),
      .field(
        "taken", "droprules.Item[]?",
        "In `dragEnded` after a drop into another app: the items the app took (those it accepts)."),
      .method(
        "hasItemsConforming",
        Signature(
          [Param("types", "string|string[]", "a type identifier or a list of them")],
          returns: [Returns("boolean", "", "")]),
        "Whether any dragged item has a representation conforming to one of `types`."),
      .method(
        "itemProviders",
        Signature(
          [Param("types", "string|string[]", "a type identifier or a list of them")],
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
      .field("name", "string?", "Its display name, if it has one."),
      .field("types", "string[]", "The type identifiers of its representations, best fidelity first (read-only)."),
      .field("container", "droprules.Target?", "The target that holds it; nil for an external or detached item."),
      .field(
        "opens", "droprules.Target?",
        """
        The target it stands for (a folder's row, a mailbox, a column): nested in the item's \
        container, and moved with the item, subtree and all. Nil for most items, and for copies.
        """),
      .field("index", "integer?", "Its 1-based place in its container's items; nil when it has no container."),
      .method(
        "conformsTo",
        Signature(
          [Param("types", "string|string[]", "a type identifier or a list of them")],
          returns: [Returns("boolean", "", "")]),
        "Whether one of its representations conforms to one of `types`."),
      .field(
        "data", "table<string, any>|fun(self: droprules.Item, type: string): string?",
        """
        Its own data, a read-only JSON object (scenario key `data` on an item), staged like target data: \
        `item.data.priority`. Called as a method, `item:data(type)` is the payload of its best \
        representation conforming to `type` (nil when none does).
        """),
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
      .field("type", "string", "Its target type, the key of its rule (`calendar.day`)."),
      .field("frame", "droprules.Frame", "Where it is, in board coordinates (read-only)."),
      .field("parent", "droprules.Target?", "The target it is nested in, if any."),
      .field(
        "collapsed", "boolean",
        "Whether it is a closed container: the targets inside it take no drops until a rule spring-loads it."),
      .field(
        "data", "table<string, any>",
        "Its free-form data, a read-only view; change it with `target:set`, then read it again."),
      .field("items", "droprules.Item[]", "The items it holds, in order (read-only list)."),
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
