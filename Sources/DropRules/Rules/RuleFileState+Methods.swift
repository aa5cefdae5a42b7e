import DropRulesLua
import DropRulesModel

/// The host's side of the objects' methods (``ItemMethods``, ``TargetMethods``,
/// ``BoardMethods``, ``InfoMethods``), each given the object's id first (nil for the board
/// and info), then the arguments api.lua checked. Misuse returns `nil, message`, raised at the rule's line; a
/// change returns `true`.
extension RuleFileState {
  func targetExists(_ arguments: [LuaValue]) -> [LuaValue] {
    [.boolean(board?.target(arguments.first?.stringValue ?? "") != nil)]
  }

  func setItemData(_ arguments: [LuaValue]) -> [LuaValue] {
    let item = arguments.first?.stringValue ?? ""
    return setter("item:set", arguments, of: .item(item), old: { key in board?.item(item)?.data[key] }) {
      key, value in
      staged("item:set") { [dataPayer] board throws(BoardError) in
        try board.setItemData(key, to: value, on: item, paidBy: dataPayer)
      }
    }
  }

  /// The id asked for when such an item is on the board or dragged in, else nil.
  func itemNamed(_ arguments: [LuaValue]) -> [LuaValue] {
    let id = arguments.dropFirst().first ?? .nil
    return [board?.item(id.stringValue ?? "") != nil ? id : .nil]
  }

  func itemConforms(_ arguments: [LuaValue]) -> [LuaValue] {
    let item = board?.item(arguments.first?.stringValue ?? "")
    return [.boolean(item?.conforms(toAnyOf: Self.typeList(arguments.dropFirst().first), in: types) ?? false)]
  }

  func itemPayload(_ arguments: [LuaValue]) -> [LuaValue] {
    let item = board?.item(arguments.first?.stringValue ?? "")
    let type = TypeIdentifier(arguments.dropFirst().first?.stringValue ?? "")
    return [item?.payload(conformingTo: type, in: types).map(LuaValue.string) ?? .nil]
  }

  func anyItemConforms(_ arguments: [LuaValue]) -> [LuaValue] {
    [.boolean(!draggedItems(conformingTo: Self.typeList(arguments.dropFirst().first)).isEmpty)]
  }

  func itemsConforming(_ arguments: [LuaValue]) -> [LuaValue] {
    let types = Self.typeList(arguments.dropFirst().first)
    return [.table(LuaTable(sequence: draggedItems(conformingTo: types).map(LuaValue.string)))]
  }

  func copyItem(_ arguments: [LuaValue]) -> [LuaValue] {
    guard let view else { return [.nil, .string("item:copy: no board")] }
    guard var copy = view.currentBoard.item(arguments.first?.stringValue ?? "") else {
      return [.nil, .string("item:copy: the item is no longer on the board")]
    }
    // A copy shares its representations with its original: it costs its id and its
    // place in the board's index, held until the drag ends.
    let cost = Self.bytesPerCopy + copy.id.utf8.count * 2
    guard cost <= runtime.memoryAvailable else {
      return [.nil, .string("item:copy: \(runtime.memoryLimitMessage) (the copies of a drag count until it ends)")]
    }
    // Its data is a copy of the original's, held by the board under its data cap.
    guard Board.dataBytes(of: copy) <= itemDataAvailable else {
      return [.nil, .string("item:copy: " + dataShareFull(.items) + " (a copy holds a copy of its item's data)")]
    }
    copy.id = view.freshCopyID(of: copy.id)
    // A copy of a container's row is a plain item: one item stands for a target.
    copy.opens = nil
    let result = staged("item:copy", returning: .string(copy.id)) { board throws(BoardError) in
      try board.addDetached(copy, paidBy: dataPayer)
    }
    if result.first?.stringValue != nil {
      copiedBytes += cost
      updateHeldBytes()
    }
    return result
  }

  func insertItems(_ arguments: [LuaValue]) -> [LuaValue] {
    let target = arguments.first?.stringValue ?? ""
    let items = arguments.count > 1 ? arguments[1].tableValue?.sequence.compactMap(\.stringValue) ?? [] : []
    let gap = arguments.count > 2 ? Self.gap(arguments[2]) : nil
    return staged("target:insert") { board throws(BoardError) in try board.insert(items, into: target, at: gap) }
  }

  func removeItem(_ arguments: [LuaValue]) -> [LuaValue] {
    let target = arguments.first?.stringValue ?? ""
    let item = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
    return staged("target:remove") { board throws(BoardError) in try board.remove(item, from: target) }
  }

  func setTargetData(_ arguments: [LuaValue]) -> [LuaValue] {
    let target = arguments.first?.stringValue ?? ""
    return setter(
      "target:set", arguments, of: .target(target), old: { key in view?.boardDataValue(key, of: target) }
    ) { key, value in
      staged("target:set") { board throws(BoardError) in try board.setData(key, to: value, on: target) }
    }
  }

  func setTargetDataForDrag(_ arguments: [LuaValue]) -> [LuaValue] {
    let target = arguments.first?.stringValue ?? ""
    guard let view else { return [.nil, .string("target:setForDrag: no board")] }
    // Drag-only data shares the board data's cap: it is held for the drag. A key the
    // drag hid is held as a null.
    let old = { (key: String) in view.dragOnlyValue(key, of: target).map { $0 ?? .null } }
    return setter("target:setForDrag", arguments, of: .target(target), old: old, nilIsHeld: true) { key, value in
      do {
        try view.setForDrag(key, to: value, on: target)
        return [.boolean(true), .string(target)]
      } catch {
        return [.nil, .string("target:setForDrag: \(error)")]
      }
    }
  }
}
