import DropRules
import DropRulesModel

/// Writes a scenario file: the inverse of ``ScenarioDecoder``, for tools that make
/// scenarios (`droprules fuzz` writes the drag it shrank), so that `droprules run`
/// replays exactly what they found.
public enum ScenarioWriter {
  /// A scenario file's JSON: `name`, `rules` (as given: paths relative to the file),
  /// `types`, `board`, `drag`, `steps`, and `expect` when given.
  public static func json(
    name: String, rules: [String], types: [(id: TypeIdentifier, conformsTo: [TypeIdentifier])], board: Board,
    drag: DragRequest, steps: [DragStep], expect: JSONValue? = nil
  ) -> JSONValue {
    var fields: [String: JSONValue] = [
      "name": .string(name),
      "rules": .array(rules.map(JSONValue.string)),
      "board": json(board),
      "drag": json(drag, on: board),
      "steps": .array(steps.map(json)),
    ]
    if !types.isEmpty {
      fields["types"] = .array(
        types.map { type in
          .object(["id": .string(type.id.rawValue), "conformsTo": .array(type.conformsTo.map { .string($0.rawValue) })])
        })
    }
    if let expect { fields["expect"] = expect }
    return .object(fields)
  }

  /// `{"targets": [...]}`, each target with its items as objects, in board order.
  public static func json(_ board: Board) -> JSONValue {
    // A target a board item stands for takes its parent from the item: written, it would
    // have to agree, so it is left out.
    let opened = Set(board.placedItems.compactMap { board.item($0)?.opens })
    return .object(["targets": .array(board.targets.map { json($0, on: board, opened: opened) })])
  }

  static func json(_ target: DropTarget, on board: Board, opened: Set<TargetID>) -> JSONValue {
    var fields: [String: JSONValue] = [
      "id": .string(target.id), "type": .string(target.type), "frame": .frame(target.frame),
      "items": .array(target.items.compactMap { board.item($0).map(json) }),
    ]
    if let parent = target.parent, !opened.contains(target.id) { fields["parent"] = .string(parent) }
    if !target.data.isEmpty { fields["data"] = .object(target.data) }
    if let extent = target.itemExtent { fields["itemExtent"] = .coordinate(extent) }
    if let axis = target.axis { fields["axis"] = .string(axis.rawValue) }
    if target.collapsed { fields["collapsed"] = .bool(true) }
    return .object(fields)
  }

  /// An item object, as a board's items and a drag's external items are written.
  public static func json(_ item: DragItem) -> JSONValue {
    var fields: [String: JSONValue] = [
      "id": .string(item.id),
      "representations": .array(item.representations.map { .array([.string($0.type.rawValue), .string($0.payload)]) }),
    ]
    if let name = item.name { fields["name"] = .string(name) }
    if !item.data.isEmpty { fields["data"] = .object(item.data) }
    if let opens = item.opens { fields["opens"] = .string(opens) }
    return .object(fields)
  }

  /// `{"items": [...], "allowedOperations": [...], "modifiers": [...]}`: board items by id,
  /// external ones as objects.
  static func json(_ drag: DragRequest, on board: Board) -> JSONValue {
    .object([
      "items": .array(
        drag.items.map { dragged in
          switch dragged {
          case .board(let id): .string(id)
          case .external(let item): json(item)
          }
        }),
      "allowedOperations": .array(
        DragOperation.allCases.filter(drag.allowedOperations.contains).map { .string($0.rawValue) }),
      "modifiers": .array(drag.modifiers.sorted().map { .string($0.rawValue) }),
    ])
  }

  /// One step as a scenario writes it: `{"at": [x, y]}`, `"drop"`, ...
  public static func json(_ step: DragStep) -> JSONValue {
    switch step {
    case .at(let point): .object(["at": .array([.coordinate(point.x), .coordinate(point.y)])])
    case .over(let target, nil): .object(["over": .string(target)])
    case .over(let target, let index?): .object(["over": .string(target), "index": .integer(Int64(index))])
    case .modifiers(let modifiers): .object(["modifiers": .array(modifiers.sorted().map { .string($0.rawValue) })])
    case .wait(let milliseconds): .object(["wait": .integer(Int64(milliseconds))])
    case .outside(let accepts, let operation):
      .object([
        "outside": .object([
          "accepts": .array(accepts.map { .string($0.rawValue) }), "operation": .string(operation.rawValue),
        ])
      ])
    case .frames(let frames): .object(["frames": .object(frames.mapValues(JSONValue.frame))])
    case .drop: .string("drop")
    case .cancel: .string("cancel")
    }
  }
}
