import DropRulesLua
import DropRulesModel

/// What a target's fields read: the target on the staged board, and the view, for its
/// data as handlers see it (staged data, then this drag's own keys). The target is
/// copied out of the board only by a field that reads it: a data read, the one a rule
/// makes after every change, needs its id alone.
package struct TargetReading {
  let id: TargetID
  let position: Int
  let view: any RuleView

  var target: DropTarget { view.currentBoard.targets[position] }
}

/// The fields a target object reads from the host when a rule first asks for one.
package enum TargetFields {
  package static let all: [HostField<TargetReading>] = [
    HostField("type", "string", .value, doc: "Its target type, the key of its rule (`calendar.day`).") {
      .string($0.target.type)
    },
    HostField("frame", "droprules.Frame", .table, doc: "Where it is, in board coordinates (read-only).") {
      let frame = $0.target.frame
      return numbers([frame.x, frame.y, frame.width, frame.height], named: ["x", "y", "width", "height"])
    },
    HostField(
      "scroll", "droprules.Point", .table,
      doc: "How far its content is scrolled: the offset of its content's origin, `{ x = 0, y = 0 }` unscrolled."
    ) { numbers([$0.target.scroll.x, $0.target.scroll.y], named: ["x", "y"]) },
    HostField("parent", "droprules.Target?", .target, doc: "The target it is nested in, if any.") {
      $0.target.parent.map(LuaValue.string) ?? .nil
    },
    HostField(
      "collapsed", "boolean", .value,
      doc: "Whether it is a closed container: the targets inside it take no drops until a rule spring-loads it."
    ) { .boolean($0.target.collapsed) },
    HostField(
      "data", "table<string, any>", data: data, changedWith: "target:set",
      doc: "Its free-form data, a read-only view; change it with `target:set`, then read it again."),
    HostField(
      "items", "droprules.Item[]", .items, changedWith: "target:insert and target:remove",
      doc: "The items it holds, in order (read-only list)."
    ) { .table(LuaTable(sequence: $0.target.items.map(LuaValue.string))) },
  ]

  /// As handlers see it: staged data, then the drag's own keys (`setForDrag`). Keys are
  /// counted before merging: merging 400,000 flooded keys is the cost to avoid.
  static let data = HostData<TargetReading>(
    keyCount: { $0.view.dataKeyCount(of: $0.id) ?? 0 },
    whole: { $0.view.data(of: $0.id) ?? [:] },
    value: { $0.view.dataValue($1, of: $0.id) })

  /// Coordinates as Lua sees them: by name and by place (`frame.x`, `frame[1]`), integers
  /// when whole, as scenarios write them, else floats.
  static func numbers(_ values: [Double], named names: [String]) -> LuaValue {
    let numbers = values.map { Int64(exactly: $0).map(LuaValue.integer) ?? .number($0) }
    return .table(LuaTable(sequence: numbers, fields: Dictionary(uniqueKeysWithValues: zip(names, numbers))))
  }
}
