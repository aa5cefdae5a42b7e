import DropRulesLua
import DropRulesModel

/// What an item's fields read: the item and the staged board that holds it.
package struct ItemReading {
  let item: DragItem
  let board: Board
}

/// The fields an item object reads from the host when a rule first asks for one.
package enum ItemFields {
  package static let all: [HostField<ItemReading>] = [
    HostField("name", "string?", .value, doc: "Its display name, if it has one.") {
      $0.item.name.map(LuaValue.string) ?? .nil
    },
    HostField(
      "types", "string[]", .table,
      doc: "The type identifiers of its representations, best fidelity first (read-only)."
    ) { .table(LuaTable(sequence: $0.item.types.map { .string($0.rawValue) })) },
    HostField(
      "container", "droprules.Target?", .target,
      doc: "The target that holds it; nil for an external or detached item."
    ) { $0.board.place(of: $0.item.id).map { .string($0.container) } ?? .nil },
    HostField(
      "opens", "droprules.Target?", .target,
      doc: """
        The target it stands for (a folder's row, a mailbox, a column): nested in the item's \
        container, and moved with the item, subtree and all. Nil for most items, and for copies.
        """
    ) { $0.item.opens.map(LuaValue.string) ?? .nil },
    HostField(
      "index", "integer?", .value, doc: "Its 1-based place in its container's items; nil when it has no container."
    ) { $0.board.place(of: $0.item.id).map { .integer(Int64($0.index)) } ?? .nil },
    HostField(
      "data", "table<string, any>|fun(self: droprules.Item, type: string): string?", data: data,
      changedWith: "item:set",
      doc: """
        Its own data, a read-only JSON object (scenario key `data` on an item), staged like target data: \
        `item.data.priority`. Called as a method, `item:data(type)` is the payload of its best \
        representation conforming to `type` (nil when none does).
        """),
  ]

  static let data = HostData<ItemReading>(
    keyCount: { $0.item.data.count }, whole: { $0.item.data }, value: { $0.item.data[$1] })
}
