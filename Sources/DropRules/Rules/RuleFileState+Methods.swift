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
      staged("item:set", .setItemData(key, to: value, on: item, paidBy: dataPayer))
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
    let result = staged("item:copy", .addDetached(copy, paidBy: dataPayer), returning: .string(copy.id))
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
    return staged("target:insert", .insert(items, into: target, at: gap))
  }

  func removeItem(_ arguments: [LuaValue]) -> [LuaValue] {
    let target = arguments.first?.stringValue ?? ""
    let item = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
    return staged("target:remove", .remove(item, from: target))
  }

  func setTargetData(_ arguments: [LuaValue]) -> [LuaValue] {
    let target = arguments.first?.stringValue ?? ""
    return setter(
      "target:set", arguments, of: .target(target), old: { key in view?.boardDataValue(key, of: target) }
    ) { key, value in
      staged("target:set", .setData(key, to: value, on: target))
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

  // MARK: What the methods share

  /// What the three data setters (`target:set`, `target:setForDrag`, `item:set`) share,
  /// so none can skip a check: refused with the caller's name when this file may not
  /// change `subject`, when the value is no JSON, or when its growth over `old(key)` does
  /// not fit the subject's share of the board's data cap. `nilIsHeld`: a nil is kept (as
  /// a null that hides the key), so it costs as one.
  private func setter(
    _ caller: String, _ arguments: [LuaValue], of subject: WriteSubject, old: (String) -> JSONValue?,
    nilIsHeld: Bool = false, set: (String, JSONValue?) -> [LuaValue]
  ) -> [LuaValue] {
    if let refusal = writeRefusal(caller, subject) { return [.nil, .string(refusal)] }
    let share = subject.share
    let key = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
    let json: JSONValue
    switch (arguments.count > 2 ? arguments[2] : .nil).json() {
    case .success(let converted): json = converted
    case .failure(let error): return [.nil, .string("\(caller): \(error.description)")]
    }
    let value = json == .null ? nil : json
    var growth = Board.bytes(of: key, nilIsHeld ? json : value) - Board.bytes(of: key, old(key))
    let fits: Bool
    switch subject {
    case .target:
      // The fast path: what all files together stored bounds each target share, so a
      // write that fits under the cap beside all of it needs no walk of this file's types.
      fits = growth <= runtime.limits.maxMemory - (view?.storedDataBytes ?? 0) || growth <= targetDataAvailable
    case .item(let id):
      // A file that changes an item pays for all of its data from now on.
      if let board, board.itemDataPayer(of: id) != dataPayer, let item = board.item(id) {
        growth += Board.dataBytes(of: item)
      }
      fits = growth <= itemDataAvailable
    }
    guard fits else { return [.nil, .string("\(caller): " + dataShareFull(share))] }
    return set(key, value)
  }

  /// Stages a change; returns `true` (or `value`) and the touched targets, else `nil, message`.
  private func staged(_ caller: String, _ change: BoardChange, returning value: LuaValue = .boolean(true)) -> [LuaValue]
  {
    guard let view else { return [.nil, .string("no board")] }
    do {
      let touched = try view.stage(change)
      return [value] + touched.map(LuaValue.string)
    } catch .copyTakesFromSource(let item, let source) where caller == "target:remove" {
      // Inserting a copy is the way out for an insert, not for a removal.
      return [
        .nil,
        .string(
          "\(caller): the drag is a copy, and a copy never takes from its source: '\(item)' stays in '\(source)'; "
            + "under a copy, leave the dragged items where they are"),
      ]
    } catch {
      return [.nil, .string("\(caller): \(error)")]
    }
  }

  private func draggedItems(conformingTo types: [TypeIdentifier]) -> [ItemID] {
    guard let view else { return [] }
    return view.draggedItems.filter {
      view.currentBoard.item($0)?.conforms(toAnyOf: types, in: view.types) ?? false
    }
  }

  /// An insertion gap from a Lua number: finite (api.lua checked), clamped as the board
  /// clamps every index.
  private static func gap(_ value: LuaValue) -> Int? {
    guard let number = value.doubleValue, number.isFinite else { return nil }
    return Board.index(number)
  }
}
