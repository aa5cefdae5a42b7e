import DropRulesLua

/// The methods of each kind of host object, declared once (``HostMethod``). Each runs the
/// host's side in RuleFileState+Methods.swift, given the object's id (nil for the board
/// and info, of which there is one) and its checked arguments.
package enum ItemMethods {
  package static let all: [HostMethod] = [
    HostMethod(
      "conformsTo", .types, [.types],
      result: .value, returns: ("boolean", ""),
      doc: "Whether one of its representations conforms to one of `types`."
    ) { state, arguments in state.itemConforms(arguments) },
    HostMethod(
      "set", .keyAndValue,
      [.key, .value(nil: "removes the key")],
      doc: "Changes one key of `item.data`, staged like `target:set`: committed with the drop, rolled back with it."
    ) { state, arguments in state.setItemData(arguments) },
    HostMethod(
      "copy", result: .item, returns: ("droprules.Item", "the copy, with a fresh id `ID-copyN`"),
      doc: "A detached copy of the item; insert it somewhere with `target:insert`, or it is dropped with the drag."
    ) { state, arguments in state.copyItem(arguments) },
  ]

  /// `item:data(type)`: what calling the `item.data` field does (``ItemFields``), a
  /// representation's payload; described with the field.
  package static let payload = HostMethod(
    "data", .typeID, [.init("type", "string", "a type identifier")], result: .value,
    returns: ("string?", "the payload, nil when no representation conforms"),
    doc: "The payload of its best representation conforming to `type`."
  ) { state, arguments in state.itemPayload(arguments) }
}

package enum TargetMethods {
  package static let all: [HostMethod] = [
    HostMethod(
      "insert", .itemsAndIndex,
      [
        .init("items", "droprules.Item|droprules.Item[]", "one item, or a list that goes in together, in order"),
        .init("index", "integer?", "the gap to insert at, 1 to #items + 1; nil appends; clamped"),
      ],
      doc: """
        Moves board items here, or adds external and copied ones. The gap is counted in \
        the list as it is now; the host does the removal shift, so moving an item next to \
        itself changes nothing. Raises on a NaN or infinite index.
        """
    ) { state, arguments in state.insertItems(arguments) },
    HostMethod(
      "remove", .item, [.init("item", "droprules.Item", "an item this target holds")],
      doc: "Removes an item from this target (it leaves the board)."
    ) { state, arguments in state.removeItem(arguments) },
    HostMethod(
      "set", .keyAndValue,
      [.key, .value(nil: "removes the key")],
      doc: "Changes one key of `target.data`."
    ) { state, arguments in state.setTargetData(arguments) },
    HostMethod(
      "setForDrag", .keyAndValue,
      [.key, .value(nil: "hides the key")],
      doc: """
        Changes one key of `target.data` for this drag only: every handler of the drag \
        reads it, and it is gone when the drag ends, performed or not, so hover \
        highlights and placeholders need no cleanup (SwiftUI's `isTargeted`). It is never \
        committed, and a handler that fails has its own calls undone.
        """
    ) { state, arguments in state.setTargetDataForDrag(arguments) },
  ]
}

package enum BoardMethods {
  package static let all: [HostMethod] = [
    HostMethod(
      "target", .id, [.init("id", "string", "a target id")], result: .target,
      returns: ("droprules.Target?", "nil when no such target"), doc: "The target with this id.", run: nil),
    HostMethod(
      "item", .id, [.init("id", "string", "an item id")], result: .item,
      returns: ("droprules.Item?", "nil when no such item"),
      doc: "The item with this id, on the board or dragged in from outside."
    ) { state, arguments in state.itemNamed(arguments) },
  ]
}

package enum InfoMethods {
  package static let all: [HostMethod] = [
    HostMethod(
      "hasItemsConforming", .types, [.types],
      result: .value, returns: ("boolean", ""),
      doc: "Whether any dragged item has a representation conforming to one of `types`."
    ) { state, arguments in state.anyItemConforms(arguments) },
    HostMethod(
      "itemProviders", .types, [.types],
      result: .itemList, returns: ("droprules.Item[]", "a new plain list"),
      doc: "The dragged items with a representation conforming to one of `types`, in drag order."
    ) { state, arguments in state.itemsConforming(arguments) },
  ]
}

/// The parameters several methods share, described once.
extension HostMethod.Parameter {
  static let types = Self("types", "string|string[]", "a type identifier or a list of them")
  static let key = Self("key", "string", "the data key")
  static func value(nil effect: String) -> Self {
    Self("value", "any", "JSON-like data: nil, boolean, number, string, or a table of them; nil " + effect)
  }
}
