import DropRulesLua
import DropRulesModel

/// What `info`'s fields of the call read: the running call's context, and the file's
/// state for the board it reads ids from.
package struct CallReading {
  let state: RuleFileState
  let context: HandlerContext
  /// The board position of the target the call is for.
  let position: Int
}

/// The fields of `info`, declared once. Those of the call are read, all in one host call,
/// at the first read in a call and forgotten as the next call begins (in C), so no field
/// can show another call's value. Those of the drag can change during it (a modifier
/// pressed): read all together when asked and kept until the board's version moves.
/// `items`, `source`, the two points and the board are made with the info (api.lua).
package enum InfoFields {
  package static let call: [HostField<CallReading>] = [
    HostField(
      "index", "integer?", .value,
      doc: """
        The insertion gap (1 is before the first item): a step's `index`, else the gap nearest \
        the pointer in a target with an `itemExtent`; in `performDrop`, the index of a \
        `{ operation, index }` proposal comes first. Nil when there is none.
        """
    ) { $0.context.index.map { .integer(Int64($0)) } ?? .nil },
    HostField(
      "hoverTime", "integer?", .value,
      doc: """
        Milliseconds the pointer has rested on the current target since it was entered \
        (reset on entering another); only `wait` steps pass time. Nil in a handler of any \
        other target.
        """
    ) { $0.context.hoverTime.map { .integer(Int64($0)) } ?? .nil },
    HostField(
      "operation", "droprules.Operation?", .value,
      doc: "In `performDrop` and `dragEnded`: the operation performed (nil unless performed)."
    ) { $0.context.operation.map { .string($0.rawValue) } ?? .nil },
    HostField(
      "outcome", "droprules.Outcome?", .value,
      doc: "In the last `dropExited` and in `dragEnded`: how the drag ended."
    ) { $0.context.outcome.map { .string($0.rawValue) } ?? .nil },
    HostField("edge", "droprules.Edge?", .value, doc: "Which third of `info.over` the pointer is in, along the axis.") {
      $0.context.edge.map { .string($0.rawValue) } ?? .nil
    },
    HostField(
      "wouldContainItself", "boolean", .value,
      doc: """
        True when a drop here would put a target inside itself: a dragged item stands for this \
        target or an ancestor of it (or of the target the item under the pointer's centre \
        stands for). The host refuses such a move whatever the rule does; forbid it early.
        """
    ) { .boolean($0.context.wouldContainItself) },
    HostField(
      "outside", "boolean?", .value,
      doc: "True while the pointer is off the board, over another app (`dragOperations`, `dragEnded`)."
    ) { .boolean($0.context.outside) },
    HostField(
      "over", "droprules.Item?", .item,
      doc: "In a target with an `itemExtent`: the item under the pointer, nil over empty space."
    ) { $0.state.item(at: $0.context.over, in: $0.position).map(LuaValue.string) ?? .nil },
    HostField(
      "destination", "droprules.Target?", .target,
      doc: "In `dragEnded`: the target that took the drop; nil when another app or nothing took it."
    ) { reading in
      guard let destination = reading.context.destination, let targets = reading.state.view?.currentBoard.targets,
        targets.indices.contains(destination)
      else { return .nil }
      return .string(targets[destination].id)
    },
  ]

  package static let drag: [HostField<DragFacts>] = [
    HostField(
      "modifiers", "droprules.Modifiers", .names,
      doc: "The pressed modifier keys as a set: `info.modifiers.option == true`."
    ) { .table(LuaTable(sequence: $0.modifiers.sorted().map { .string($0.rawValue) })) },
    HostField(
      "allowedOperations", "droprules.OperationSet", .names,
      doc: "What the drag and its sources allow, as a set: `info.allowedOperations.move == true`."
    ) { facts in
      .table(
        LuaTable(sequence: DragOperation.allCases.filter(facts.allowedOperations.contains).map { .string($0.rawValue) })
      )
    },
    HostField(
      "taken", "droprules.Item[]?", .items,
      doc: "In `dragEnded` after a drop into another app: the items the app took (those it accepts)."
    ) { $0.takenOutside.map { .table(LuaTable(sequence: $0.map(LuaValue.string))) } ?? .nil },
  ]
}
