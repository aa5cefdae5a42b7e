import Foundation

/// The host functions behind the Lua rule API. Each reads or stages the board the
/// current drag sees; API misuse returns `nil, message` so the Lua side can raise the
/// error at the rule's own line.
extension RuleHost {
  func makeHostFunctions() -> [String: LuaValue] {
    let lua = runtime
    return [
      "targetInfo": lua.function { [unowned self] arguments in
        guard let target = currentBoard.target(arguments.first?.stringValue ?? "") else { return [] }
        let frame = target.frame
        let numbers: [LuaValue] = [frame.x, frame.y, frame.width, frame.height].map(LuaValue.number)
        let frameTable = LuaTable(
          sequence: numbers, fields: ["x": numbers[0], "y": numbers[1], "width": numbers[2], "height": numbers[3]])
        return [.string(target.type), .table(frameTable), target.parent.map(LuaValue.string) ?? .nil]
      },
      "targetData": lua.function { [unowned self] arguments in
        let data = currentBoard.target(arguments.first?.stringValue ?? "")?.data ?? [:]
        return [LuaValue(json: .object(data))]
      },
      "targetItems": lua.function { [unowned self] arguments in
        [.table(LuaTable(sequence: currentBoard.items(in: arguments.first?.stringValue ?? "").map(LuaValue.string)))]
      },
      "itemInfo": lua.function { [unowned self] arguments in
        guard let item = currentBoard.item(arguments.first?.stringValue ?? "") else { return [] }
        return [
          item.name.map(LuaValue.string) ?? .nil,
          .table(LuaTable(sequence: item.types.map { .string($0.rawValue) })),
        ]
      },
      "itemPlace": lua.function { [unowned self] arguments in
        guard let place = currentBoard.place(of: arguments.first?.stringValue ?? "") else { return [] }
        return [.string(place.container), .integer(Int64(place.index))]
      },
      "itemExists": lua.function { [unowned self] arguments in
        [.boolean(currentBoard.item(arguments.first?.stringValue ?? "") != nil)]
      },
      "itemConforms": lua.function { [unowned self] arguments in
        let item = currentBoard.item(arguments.first?.stringValue ?? "")
        return [.boolean(item?.conforms(toAnyOf: Self.typeList(arguments.dropFirst().first), in: types) ?? false)]
      },
      "itemData": lua.function { [unowned self] arguments in
        let item = currentBoard.item(arguments.first?.stringValue ?? "")
        let type = TypeIdentifier(arguments.dropFirst().first?.stringValue ?? "")
        return [item?.payload(conformingTo: type, in: types).map(LuaValue.string) ?? .nil]
      },
      "anyItemConforms": lua.function { [unowned self] arguments in
        [.boolean(!draggedItems(conformingTo: Self.typeList(arguments.first)).isEmpty)]
      },
      "itemsConforming": lua.function { [unowned self] arguments in
        [.table(LuaTable(sequence: draggedItems(conformingTo: Self.typeList(arguments.first)).map(LuaValue.string)))]
      },
      "copyItem": lua.function { [unowned self] arguments in
        stage { board throws(LuaHostError) in
          guard let item = board.item(arguments.first?.stringValue ?? "") else {
            throw LuaHostError("item:copy: the item is no longer on the board")
          }
          var copy = item
          copy.id = freshCopyID(of: item.id, on: board)
          do { try board.addDetached(copy) } catch { throw LuaHostError("item:copy: \(error)") }
          return .string(copy.id)
        }
      },
      "insert": lua.function { [unowned self] arguments in
        stage { board throws(LuaHostError) in
          let index =
            arguments.count > 2 ? arguments[2].doubleValue.map { Int(clamping: Int64(max(min($0, 1e9), -1e9))) } : nil
          let items = arguments[1].tableValue?.sequence.compactMap(\.stringValue) ?? []
          do {
            try board.insert(items, into: arguments[0].stringValue ?? "", at: index)
          } catch { throw LuaHostError("target:insert: \(error)") }
          return .boolean(true)
        }
      },
      "remove": lua.function { [unowned self] arguments in
        stage { board throws(LuaHostError) in
          do {
            try board.remove(arguments[1].stringValue ?? "", from: arguments[0].stringValue ?? "")
          } catch { throw LuaHostError("target:remove: \(error)") }
          return .boolean(true)
        }
      },
      "setData": lua.function { [unowned self] arguments in
        stage { board throws(LuaHostError) in
          let value = arguments.count > 2 ? arguments[2] : .nil
          let json: JSONValue
          switch value.json() {
          case .success(let converted): json = converted
          case .failure(let error): throw LuaHostError("target:set: \(error)")
          }
          do {
            try board.setData(
              arguments[1].stringValue ?? "", to: json == .null ? nil : json, on: arguments[0].stringValue ?? "")
          } catch { throw LuaHostError("target:set: \(error)") }
          return .boolean(true)
        }
      },
      "declareType": lua.function { [unowned self] arguments in
        let id = arguments.first?.stringValue ?? ""
        guard !id.isEmpty else { return [.nil, .string("droprules.declareType: the type identifier is empty")] }
        declareType(TypeIdentifier(id), conformsTo: Self.typeList(arguments.dropFirst().first))
        return [.boolean(true)]
      },
      "decodeJSON": lua.function { arguments in
        guard let text = arguments.first?.stringValue else {
          return [
            .nil, .string("droprules.decodeJSON expects a string, got \(arguments.first?.typeName ?? "nothing")"),
          ]
        }
        guard let value = try? JSONValue.parse(Data(text.utf8)) else {
          return [.nil, .string("droprules.decodeJSON: not valid JSON: \(text.prefix(60))")]
        }
        return [LuaValue(json: value)]
      },
      "conforms": lua.function { [unowned self] arguments in
        let type = TypeIdentifier(arguments.first?.stringValue ?? "")
        return [.boolean(types.conforms(type, toAnyOf: Self.typeList(arguments.dropFirst().first)))]
      },
    ]
  }

  /// Applies a change to the staged board, or explains why the board cannot change now.
  private func stage(_ change: (inout Board) throws(LuaHostError) -> LuaValue) -> [LuaValue] {
    guard var state = drag else {
      return [.nil, .string("the board can only change during a drag")]
    }
    guard !state.isReadOnly else {
      return [.nil, .string("the board is read-only in dropExited after the drop")]
    }
    do {
      let result = try change(&state.staged)
      drag = state
      boardGeneration += 1
      return [result]
    } catch {
      return [.nil, .string(error.description)]
    }
  }

  private func draggedItems(conformingTo types: [TypeIdentifier]) -> [ItemID] {
    guard let drag else { return [] }
    return drag.itemIDs.filter { drag.staged.item($0)?.conforms(toAnyOf: types, in: self.types) ?? false }
  }

  private static func typeList(_ value: LuaValue?) -> [TypeIdentifier] {
    switch value ?? .nil {
    case .string(let type): [TypeIdentifier(type)]
    case .table(let table): table.sequence.compactMap(\.stringValue).map { TypeIdentifier($0) }
    default: []
    }
  }
}
