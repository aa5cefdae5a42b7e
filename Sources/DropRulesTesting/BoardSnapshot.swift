import DropRules
import DropRulesLua
import DropRulesModel

/// The committed board as plain Lua tables, for `property(name, check)`: a property reads
/// what it wants without host objects, and cannot change the board.
///
/// `board.targets[id]` is `{ id, type, items = { item ids }, data, parent, collapsed }`;
/// `board.items[id]` is `{ id, name, data, container, index, opens }`, for the items on
/// the board.
enum BoardSnapshot {
  static func lua(_ board: Board) -> LuaValue {
    var targets: [String: LuaValue] = [:]
    var items: [String: LuaValue] = [:]
    for target in board.targets {
      var fields: [String: LuaValue] = [
        "id": .string(target.id), "type": .string(target.type), "data": LuaValue(json: .object(target.data)),
        "items": .table(LuaTable(sequence: target.items.map(LuaValue.string))), "collapsed": .boolean(target.collapsed),
      ]
      fields["parent"] = target.parent.map(LuaValue.string)
      targets[target.id] = .table(LuaTable(fields: fields))
      for (offset, id) in target.items.enumerated() {
        guard let item = board.item(id) else { continue }
        var itemFields: [String: LuaValue] = [
          "id": .string(id), "data": LuaValue(json: .object(item.data)), "container": .string(target.id),
          "index": .integer(Int64(offset + 1)),
        ]
        itemFields["name"] = item.name.map(LuaValue.string)
        itemFields["opens"] = item.opens.map(LuaValue.string)
        items[id] = .table(LuaTable(fields: itemFields))
      }
    }
    return .table(
      LuaTable(fields: ["targets": .table(LuaTable(fields: targets)), "items": .table(LuaTable(fields: items))]))
  }
}
