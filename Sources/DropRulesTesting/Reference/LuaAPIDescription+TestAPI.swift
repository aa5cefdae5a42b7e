import DropRules
import DropRulesModel
import DropRulesTools

/// The test API of `*_test.lua` files (testing.lua, beside this file): simulations, drag
/// handles and expectations, and the globals of a test file.
extension LuaAPIDescription {
  typealias Param = Parameter
  typealias Returns = Result

  /// The whole API: what rule files and test files see. `droprules types` writes it, and
  /// the tests hold it to the sandbox and to `docs/reference.md`.
  package static let droprules = LuaAPIDescription(
    aliases: rules.aliases,
    classes: rules.classes + [
      simulation, drag, expectation, spy, spiedCall, diagnostic, committedTarget, committedItem, boardSnapshot,
      scenarioSpec, targetSpec, itemSpec,
    ],
    environments: rules.environments + [
      // A test file's `assert` is luassert's, still Lua's assert when called.
      Environment(name: "test", globals: sandbox.filter { $0.name != "assert" } + testGlobals)
    ])

  private static let proposalName = "\"move\"|\"copy\"|\"forbidden\"|\"cancel\""

  static let simulation = Class(
    name: "droprules.Simulation", variable: "sim",
    doc: "A board with its rules loaded, made by `scenario{}`: a rule host of its own.",
    members: [
      .field("id", "integer", "The simulation's number, which its handles use.", internal: true),
      .field(
        "errors", "droprules.Diagnostic[]",
        "The rule errors the test has not taken yet (a new list at each read), oldest first."),
      .method(
        "item",
        Signature(
          [Param("id", "string", "an item id")],
          returns: [Returns("droprules.CommittedItem?", "", "a plain copy; nil when the item is gone")]),
        "An item as committed: id, name, data, and where it sits."),
      .method(
        "takeErrors", Signature(returns: [Returns("droprules.Diagnostic[]", "", "the errors not taken before")]),
        "Takes the rule errors so far: a test that leaves one untaken fails, with the error under it."),
      .method(
        "spy",
        Signature(
          [
            Param("handler", "string", "a handler name, such as `\"performDrop\"`"),
            Param("options", "{ target: string?, type: string? }?", "only the calls for one target id, or one type"),
          ], returns: [Returns("droprules.Spy", "", "")]),
        "Watches a rule handler from now on: `expect(spy):toHaveBeenCalledTimes(1)`, `spy.calls`."),
      .method(
        "drag",
        Signature(
          [
            Param("items", "string|(string|droprules.ItemSpec)[]", "board item ids, or external items as tables"),
            Param(
              "options", "{ allowedOperations: droprules.Operation[]?, modifiers: droprules.Modifier[]? }?",
              "default: both operations, or copy only when every item is external; no modifiers"),
          ], returns: [Returns("droprules.Drag", "", "")]),
        "Begins a drag (`canDrag`, `dragOperations`); a drag still in progress on this simulation is cancelled."),
      .method(
        "items",
        Signature([Param("id", "string", "a target id")], returns: [Returns("string[]", "", "item ids, in order")]),
        "The committed items of a target."),
      .method(
        "target",
        Signature(
          [Param("id", "string", "a target id")], returns: [Returns("droprules.CommittedTarget", "", "a plain copy")]),
        "A target as committed: id, type, data and item ids."),
    ])

  static let drag = Class(
    name: "droprules.Drag", variable: "drag",
    doc: "A drag handle from `sim:drag`. It drives its own drag only: once replaced, it raises `this drag is over`.",
    members: [
      .field("refused", "string[]", "The ids of the items `canDrag` kept in place."),
      .field(
        "lastStep", "table?",
        "The drag's last step as the JSON trace has it: `proposal`, `target`, `index`, `downgrade`, `printed`, "
          + "`skipped`, `calls`, `outcome`, ...; right after `sim:drag`, the begin step (number 0)."),
      .field("sim", "integer", "The number of its simulation.", internal: true),
      .field("serial", "integer", "Which drag of its simulation it drives.", internal: true),
      .method(
        "over",
        Signature(
          [
            Param("id", "string", "a target id: the pointer goes to its centre"),
            Param("options", "{ index: integer? }?", "an insertion index for the step"),
          ], returns: [Returns(proposalName, "", "the negotiated proposal")]),
        "Moves the pointer over a target (only it and its ancestors are considered)."),
      .method(
        "at",
        Signature(
          [Param("x", "number", "board x"), Param("y", "number", "board y")],
          returns: [Returns(proposalName, "", "the negotiated proposal")]),
        "Moves the pointer to a point; the innermost target there is hit."),
      .method(
        "modifiers",
        Signature(
          [Param("list", "droprules.Modifier[]?", "the keys now pressed; nil or {} for none")],
          returns: [Returns(proposalName, "", "the negotiated proposal")]),
        "Changes the pressed modifier keys."),
      .method(
        "outside",
        Signature(
          [
            Param(
              "spec", "{ accepts: string|string[]?, operation: droprules.Operation? }?",
              "what the other app takes (default public.item) and asks for (default copy)")
          ], returns: [Returns(proposalName, "", "the negotiated proposal")]),
        "Moves the pointer off the board into another app."),
      .method(
        "wait",
        Signature(
          [Param("ms", "integer", "milliseconds, 0 to 3600000")],
          returns: [Returns(proposalName, "", "the negotiated proposal")]),
        "Lets time pass without moving (a dwell): the current target's `dropUpdated` runs again with `info.hoverTime`."),
      .method(
        "frames",
        Signature(
          [Param("frames", "table<string, number[]>", "`{ id = { x, y, width, height }, ... }`")],
          returns: [Returns(proposalName, "", "the negotiated proposal")]),
        "Moves targets after a layout change; the pointer, where it is, is hit-tested again."),
      .method(
        "drop", Signature(returns: [Returns("droprules.Outcome", "", "")]),
        "Drops: `performDrop`, the last `dropExited`, `dragEnded`."),
      .method(
        "cancel", Signature(returns: [Returns("droprules.Outcome", "", "")]),
        "Cancels the drag: the staged changes roll back."),
      .method(
        "target",
        Signature(
          [Param("id", "string", "a target id")], returns: [Returns("droprules.CommittedTarget", "", "a plain copy")]),
        "A target as this drag's handlers see it now: staged changes and drag-only data (`target:setForDrag`)."),
    ])

  static let expectation = Class(
    name: "droprules.Expectation", variable: "expect(actual)",
    doc: "What `expect(actual)` returns. A failing matcher raises at the test's line with both values.",
    members: [
      .field("actual", "any", "The value under test.", internal: true),
      .field("checked", "table", "Whether a matcher has run.", internal: true),
      .field(
        "no", "droprules.Expectation",
        "The negated expectation: `expect(x).no:toBe(y)` passes when `x` is not `y`."),
      .method(
        "never", Signature(returns: [Returns("droprules.Expectation", "", "")]),
        "The negated expectation, as `.no`: `expect(x):never():toBe(y)`."),
      .method(
        "toRaise", Signature([Param("pattern", "string?", "plain text, or a Lua pattern, the message must hold")]),
        "`actual` is a function: passes when calling it raises an error whose message holds `pattern`."),
      .method(
        "toHaveBeenCalled", Signature(),
        "`actual` is a spy (`sim:spy`): passes when its handler was called since the spy was made."),
      .method(
        "toHaveBeenCalledTimes", Signature([Param("count", "integer", "")]),
        "`actual` is a spy: passes when its handler was called exactly `count` times."),
      .method("toBe", Signature([Param("expected", "any", "")]), "Passes when `actual == expected`."),
      .method(
        "toEqual", Signature([Param("expected", "any", "")]),
        "Passes when the two are equal, tables compared key by key, deeply."),
      .method("toBeNil", Signature(), "Passes when `actual` is nil."),
      .method("toBeTruthy", Signature(), "Passes when `actual` is neither nil nor false."),
      .method("toBeFalsy", Signature(), "Passes when `actual` is nil or false."),
      .method(
        "toContain", Signature([Param("expected", "any", "")]),
        "A string: passes when it contains `expected` as plain text. A table: when a value deeply equals `expected`."),
    ])

  static let spy = Class(
    name: "droprules.Spy", variable: "spy",
    doc: "A watch on one rule handler of a simulation, from `sim:spy(handler)`.",
    members: [
      .field("spy", "true", "Marks a spy for the matchers.", internal: true),
      .field("sim", "integer", "The number of its simulation.", internal: true),
      .field("from", "integer", "Where its calls start in the simulation's log.", internal: true),
      .field("handler", "string", "The handler it watches."),
      .field("target", "string?", "The target id it is narrowed to."),
      .field("type", "string?", "The target type it is narrowed to."),
      .field("description", "string", "`performDrop of b`, for messages."),
      .field("calls", "droprules.SpiedCall[]", "The calls so far, oldest first (a new list at each read)."),
    ])

  static let spiedCall = Class(
    name: "droprules.SpiedCall", variable: "spy.calls[n]",
    doc: "One call of a spied handler.",
    members: [
      .field("handler", "string", "The handler called."), .field("target", "string", "The target it ran for."),
      .field("item", "string?", "The item `canDrag` was asked about."),
      .field("step", "integer", "The drag step that made the call."),
      .field("result", "any", "What it returned, as the JSON trace has it (nil when it raised)."),
      .field("error", "boolean", "Whether it raised."),
    ])

  static let diagnostic = Class(
    name: "droprules.Diagnostic", variable: "sim.errors[n]",
    doc: "A rule error, as `sim.errors` lists them.",
    members: [
      .field("message", "string", "What went wrong."),
      .field("file", "string?", "The rule file."),
      .field("line", "integer?", "The line in it."),
      .field("handler", "string?", "The handler that raised (`performDrop`)."),
      .field("target", "string?", "The id of the target it ran for."),
      .field("step", "integer?", "The number of the drag step it happened in."),
    ])

  static let committedTarget = Class(
    name: "droprules.CommittedTarget", variable: "sim:target(id)",
    doc: "A plain copy of a committed target (`sim:target(id)`).",
    members: [
      .field("id", "string", "Its id."), .field("type", "string", "Its target type."),
      .field("data", "table<string, any>", "A copy of its data."),
      .field("items", "string[]", "Its item ids, in order."),
      .field("parent", "string?", "The id of the target it is nested in now (a folder moves with its row)."),
      .field("collapsed", "boolean", "Whether it is a closed container."),
    ])

  static let boardSnapshot = Class(
    name: "droprules.BoardSnapshot", variable: "board",
    doc: "The committed board as plain tables, what `property` checks get: change it as you like, it is a copy.",
    members: [
      .field(
        "targets",
        "table<string, { id: string, type: string, items: string[], data: table, parent: string?, collapsed: boolean }>",
        "Each target by id: `board.targets.todo.items` (item ids, in order)."),
      .field(
        "items",
        "table<string, { id: string, name: string?, data: table, container: string, index: integer, opens: string? }>",
        "Each item on the board by id: `board.items.standup.container`."),
    ])

  static let committedItem = Class(
    name: "droprules.CommittedItem", variable: "sim:item(id)",
    doc: "A plain copy of a committed item (`sim:item(id)`).",
    members: [
      .field("id", "string", "Its id."), .field("name", "string?", "Its display name."),
      .field("data", "table<string, any>", "A copy of its own data."),
      .field("container", "string?", "The id of the target that holds it; nil when it is on no target."),
      .field("index", "integer?", "Its 1-based place in that target's items."),
      .field("opens", "string?", "The id of the target it stands for, if any."),
    ])

  static let scenarioSpec = Class(
    name: "droprules.ScenarioSpec", variable: "spec",
    doc: "What `scenario{}` takes: a scenario file's schema as a Lua table (lists count from 1 in errors).",
    members: [
      .field("name", "string?", "A name for messages."),
      .field("rules", "string[]?", "Rule files, relative to the test file (default: its name without `_test`)."),
      .field("types", "{ id: string, conformsTo: string[]? }[]?", "Custom types."),
      .field(
        "board", "{ targets: droprules.TargetSpec[] }|string",
        "The board, or the path of a board file (`\"desk.board.json\"`) that scenario files share."),
      .field("drag", "nil", "Refused: a test drives its drags with `sim:drag`."),
      .field("steps", "nil", "Refused: a test drives its steps with `drag:over`, `drag:at`, ..."),
      .field("expect", "nil", "Refused: a test checks with `expect(...)`."),
    ])

  static let targetSpec = Class(
    name: "droprules.TargetSpec", variable: "targetSpec",
    doc: "A target of a scenario's board.",
    members: [
      .field("id", "string", "Unique id."), .field("type", "string", "Its target type."),
      .field("frame", "number[]", "`{ x, y, width, height }` in board coordinates."),
      .field("parent", "string?", "The id of the target it is nested in."),
      .field("data", "table<string, any>?", "Free-form data (a JSON object)."),
      .field("items", "droprules.ItemSpec[]?", "The items it holds, in order."),
      .field("itemExtent", "number?", "The size of one item along the axis: the host computes `info.index`."),
      .field("axis", "\"vertical\"|\"horizontal\"?", "The axis items are laid out along (default vertical)."),
      .field(
        "collapsed", "boolean?",
        "A closed container: the targets inside it take no drops until a rule spring-loads it (default false)."),
    ])

  static let itemSpec = Class(
    name: "droprules.ItemSpec", variable: "itemSpec",
    doc: "An item of a scenario's board, or an external item of a drag.",
    members: [
      .field("id", "string", "Unique id."), .field("name", "string?", "A display name."),
      .field(
        "representations", "string[][]?",
        "`{ { type, payload }, ... }`, best fidelity first (or `{ type = ..., payload = ... }` tables)."),
      .field("data", "table<string, any>?", "The item's own data (a JSON object): `item.data` in rules."),
      .field(
        "opens", "string?",
        "The id of the target this board item stands for (a folder's row): that target's parent is the item's "
          + "container."),
    ])

}
