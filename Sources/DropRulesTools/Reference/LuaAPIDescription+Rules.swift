import DropRules
import DropRulesModel

/// What a rule file writes (the rule table and its handlers), what its handlers return,
/// and the `droprules` library.
extension LuaAPIDescription {
  private static let dropHandler = "fun(info: droprules.Info, target: droprules.Target)"

  static let rule = Class(
    name: "droprules.Rule", variable: nil,
    doc: """
      The rule for one target type: a table of these keys, all optional. A rule file \
      returns `{ [targetType] = rule, ... }` (`droprules.RuleFile`); `"*"` is the \
      fallback for types no file names. Any other key is a load error.
      """,
    members: [
      .field(
        "accepts", "string|string[]",
        "Types of which a dragged item must carry one for the target to take part (like `onDrop(of:)`)."),
      .field(
        "deletes", "boolean?",
        "A drop here may take items off the board for good (a trash): `droprules fuzz` does not call them lost."),
      .field(
        "duplicates", "boolean?",
        "A drop here may leave more items than it brought (a shelf that keeps a copy): `droprules fuzz` does not "
          + "call them duplicated."),
      .field(
        "validateDrop", dropHandler + ": boolean?",
        "Once when the pointer enters: falsy refuses (the parent is tried); nil or no handler accepts."),
      .field("dropEntered", dropHandler, "After a successful `validateDrop`; may stage board changes (live preview)."),
      .field(
        "dropUpdated", dropHandler + ": droprules.Proposal?",
        "On entry and on every move or modifier change in the target: the proposal; nil keeps the last one."),
      .field(
        "dropExited", dropHandler,
        "When the pointer leaves, and once after the drop or cancel (`info.outcome` set, board read-only)."),
      .field(
        "performDrop", dropHandler + ": boolean?",
        "On drop: exactly `true` commits the staged changes; anything else (or an error) rolls them back."),
      .field(
        "canDrag", "fun(item: droprules.Item, source: droprules.Target, info: droprules.Info): boolean?",
        "When a drag begins, per dragged item of a target of this type: falsy keeps it in place. `info` "
          + "(read-only) has the board, the modifiers and every item being gathered."),
      .field(
        "dragOperations", "fun(info: droprules.Info, source: droprules.Target): droprules.Operation[]?",
        "When a drag begins and when it leaves the board: the operations this source allows (nil: both)."),
      .field(
        "dragEnded", "fun(info: droprules.Info, source: droprules.Target)",
        "Once per source target at the end of a drag; may change that target (its own transaction)."),
      .field(
        "dragPreview", "fun(items: droprules.Item[], source: droprules.Target): droprules.Preview?",
        "Once the items are gathered, of the first source: what the drag shows (default: the first item's name "
          + "and the count). Read-only."),
      .field(
        "announce",
        "fun(event: droprules.AnnouncementEvent, info: droprules.Info, target: droprules.Target): string?",
        "What a screen reader says instead of the built-in sentence: `lifted` (of the first source), `entered`, "
          + "`proposal`, `exited`, `dropped`, `refused`, `cancelled`. Nil keeps the built-in. Read-only."),
    ])

  static let library = Class(
    name: "droprules.Library", variable: "droprules",
    doc: "The `droprules` global of rule files: types and JSON. Each file gets its own copy.",
    members: [
      .function(
        "declareType",
        Signature([
          Param("id", "string", "the new type identifier"),
          Param("options", "{ conformsTo: string|string[] }?", "the types it conforms to (default none)"),
        ]),
        "Declares a custom type. Only at load time (the top level of a rule file); in a handler it raises."),
      .function(
        "conforms",
        Signature(
          [
            Param("type", "string", "a type identifier"),
            Param("other", "string|string[]", "a type identifier or a list of them"),
          ], returns: [Returns("boolean", "", "")]),
        "Whether `type` conforms (transitively) to `other` or to one of a list."),
      .function(
        "decodeJSON",
        Signature(
          [Param("text", "string", "JSON text (RFC 8259, strict)")],
          returns: [
            Returns("any", "value", "the decoded value (JSON null is nil)"),
            Returns("string?", "message", "when the text is not JSON: why, with line and column"),
          ]),
        "Decodes JSON text, such as an item's payload. On bad text it returns nil and a message; it does not raise."),
      .function(
        "encodeJSON",
        Signature(
          [Param("value", "any", "nil, a boolean, a finite number, a string, or a table of them")],
          returns: [
            Returns("string?", "text", "compact JSON, keys sorted; an empty table is `{}`"),
            Returns("string?", "message", "when the value cannot be JSON: why"),
          ]),
        """
        Encodes a value as JSON text, the reverse of `decodeJSON`: integers stay integers and floats floats. \
        A table must be a list 1..n or have string keys only; NaN, infinities, functions and a table that \
        contains itself give nil and a message; it does not raise.
        """),
    ])

  static let proposalTable = Class(
    name: "droprules.ProposalTable", variable: "proposal",
    doc: "A proposal with an insertion index, which `performDrop` then sees as `info.index`.",
    members: [
      .field("operation", "\"move\"|\"copy\"|\"forbidden\"|\"cancel\"", "The proposal."),
      .field("index", "integer?", "The gap to drop at; must be a whole, finite number."),
      .field(
        "open", "boolean?",
        "Spring-loads: the closed container under the pointer (the item's `opens`, else `target.data.opens`, else "
          + "the target) opens for the rest of the drag. Only from `dropUpdated`."),
    ])

  static let preview = Class(
    name: "droprules.Preview", variable: "preview",
    doc: "What `dragPreview` returns: the drag's preview under the pointer.",
    members: [
      .field("title", "string", "The main line (200 characters at most are kept)."),
      .field("subtitle", "string?", "A second line."),
      .field("badge", "string|integer?", "A corner badge, such as the count of items."),
    ])

  static let ruleAliases: [Alias] = [
    Alias(
      name: "droprules.AnnouncementEvent", doc: "What `announce` is asked to say.",
      choices: AnnouncementEvent.allCases.map { ("\"\($0.rawValue)\"", "") }),
    Alias(
      name: "droprules.RuleFile", doc: "What a rule file returns: target types to rules.",
      choices: [("table<string, droprules.Rule>", "")]),
    Alias(
      name: "droprules.Proposal", doc: "What `dropUpdated` returns.",
      choices: [
        ("\"move\"", "the drop would move the items"),
        ("\"copy\"", "the drop would copy the items"),
        ("\"forbidden\"", "a drop here is refused (the pointer shows it)"),
        ("\"cancel\"", "no drop here, as over no target"),
        ("droprules.ProposalTable", "`{ operation = ..., index = n }`"),
      ]),
    Alias(
      name: "droprules.Operation", doc: "A drag operation.",
      choices: [("\"move\"", "the items leave where they were"), ("\"copy\"", "the originals stay")]),
    Alias(
      name: "droprules.Outcome", doc: "How a drag ended (`info.outcome`, `drag:drop()`).",
      choices: [
        ("\"performed\"", "the drop was taken"),
        ("\"cancelled\"", "no drop: cancelled, or dropped where the proposal was forbidden or cancel"),
        ("\"failed\"", "performDrop did not return true, or raised"),
        ("\"refused\"", "canDrag let no item go, so the drag never began"),
      ]),
    Alias(
      name: "droprules.Edge", doc: "Which third of the item under the pointer (`info.edge`).",
      choices: [
        ("\"before\"", "the first third along the axis"),
        ("\"center\"", "the middle third: a drop into the item"),
        ("\"after\"", "the last third, up to the next item"),
      ]),
    Alias(
      name: "droprules.Modifier", doc: "A modifier key.",
      choices: Modifier.allCases.map { ("\"\($0.rawValue)\"", "") }),
  ]
}
