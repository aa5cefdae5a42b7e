import DropRules
import DropRulesModel

/// A board as the web pages draw it: every target with its frame, type, parent, data and
/// item ids, and every item's name and types.
///
/// The shape is the page's own (`{"targets": [...], "items": {id: {...}}}`): the pages
/// draw from frames, which the JSON trace leaves out.
enum BoardJSON {
  /// The board's targets in declaration order (later ones are drawn on top) and its items.
  ///
  /// - Parameters:
  ///   - board: the board to draw.
  ///   - extraItems: items to describe that are not on the board, such as the items a
  ///     drag brings in from another app.
  /// - Returns: `{"targets": [...], "items": {id: {...}}}`.
  static func json(_ board: Board, extraItems: [DragItem] = []) -> JSONValue {
    var items: [String: JSONValue] = [:]
    for item in extraItems { items[item.id] = json(item) }
    for id in board.placedItems {
      if let item = board.item(id) { items[id] = json(item) }
    }
    return .object(["targets": .array(board.targets.map(json)), "items": .object(items)])
  }

  static func json(_ target: DropTarget) -> JSONValue {
    let frame = target.frame
    return .object([
      "id": .string(target.id),
      "type": .string(target.type),
      "frame": .frame(frame),
      "parent": target.parent.map(JSONValue.string) ?? .null,
      "data": .object(target.data),
      "items": .array(target.items.map(JSONValue.string)),
      "axis": target.axis.map { .string($0.rawValue) } ?? .null,
      "itemExtent": target.itemExtent.map(JSONValue.coordinate) ?? .null,
      "collapsed": .bool(target.collapsed),
    ])
  }

  static func json(_ item: DragItem) -> JSONValue {
    .object([
      "name": item.name.map(JSONValue.string) ?? .null,
      "types": .array(item.types.map { .string($0.rawValue) }),
      "opens": item.opens.map(JSONValue.string) ?? .null,
    ])
  }
}
