import DropRulesLua
import DropRulesModel

/// The host functions api.lua reads every declared field through (``TargetFields``,
/// ``ItemFields``, ``InfoFields``), one per kind of object, and calls every declared method
/// through (``ItemMethods``...), by the declaration's place in its list: api.lua holds no
/// field or method of its own.
extension RuleFileState {
  /// Each kind's methods, by the name api.lua knows them by, and which of them is what
  /// calling a field of that name does (`item:data(type)`).
  static let methodsByKind: [String: (methods: [HostMethod], calledAsField: Set<String>)] = [
    "item": (ItemMethods.all + [ItemMethods.payload], [ItemMethods.payload.name]),
    "target": (TargetMethods.all, []), "board": (BoardMethods.all, []), "info": (InfoMethods.all, []),
  ]

  /// Each kind's methods as api.lua takes them, made once: every new state asks for them.
  private static let methodListings: [String: [[String]]] = methodsByKind.mapValues { kind in
    [
      kind.methods.map(\.name), kind.methods.map(\.arguments.rawValue), kind.methods.map(\.result.rawValue),
      kind.methods.map { kind.calledAsField.contains($0.name) ? "field" : "" },
    ]
  }

  func makeHostObjectFunctions() -> [String: LuaValue] {
    let lua = runtime
    return [
      // Each method's name, its arguments' check, its result's shape, "field" for what
      // calling a field does, and its host function (false for a lookup its shape
      // answers), as lists.
      "methodsOf": lua.function { [unowned self] arguments in
        let kind = arguments.first?.stringValue ?? ""
        guard let listing = Self.methodListings[kind], let methods = Self.methodsByKind[kind]?.methods else {
          return []
        }
        return listing.map { .table(LuaTable(sequence: $0.map(LuaValue.string))) }
          + [.table(LuaTable(sequence: methods.map(hostFunction(for:))))]
      },
      // The names, shapes and read-only descriptions of each kind's fields, as lists.
      "fieldsOf": lua.function { arguments in
        guard let listing = Self.fieldListings[arguments.first?.stringValue ?? ""] else { return [] }
        return [listing.names, listing.shapes, listing.descriptions].map {
          .table(LuaTable(sequence: $0.map(LuaValue.string)))
        }
      },
      // `true`, the field's value; nothing once the target has left the board.
      "targetField": lua.function { [unowned self] arguments in
        Self.read(TargetFields.all, of: targetReading(arguments), arguments)
      },
      "itemField": lua.function { [unowned self] arguments in
        Self.read(ItemFields.all, of: itemReading(arguments), arguments)
      },
      // A data field read a key at a time: `found, value` for a key, the whole data
      // without one; nothing once the object has left the board.
      "targetData": lua.function { [unowned self] arguments in
        Self.readData(TargetFields.all, of: targetReading(arguments), arguments)
      },
      "itemData": lua.function { [unowned self] arguments in
        Self.readData(ItemFields.all, of: itemReading(arguments), arguments)
      },
      // api.lua keeps what this gives in its call readings, which the next call empties.
      "callFields": lua.function { [unowned self] _ in
        runtime.callReadingsFilled()
        guard let call = currentCall else { return [] }
        let reading = CallReading(state: self, context: call.context, position: call.position)
        return InfoFields.call.map { $0.read(reading) }
      },
      // Nothing once the drag has ended.
      "dragFields": lua.function { [unowned self] _ in
        guard let facts = view?.dragFacts else { return [] }
        return InfoFields.drag.map { $0.read(facts) }
      },
    ]
  }

  /// The method's host work as a function of the object's id and the checked arguments.
  /// A method's host work, as a function of the object's id and the checked arguments:
  /// one function per method, so that a call passes nothing to find it by (a rule's
  /// `target:set` is on the path of every step that stages a change).
  private func hostFunction(for method: HostMethod) -> LuaValue {
    guard let run = method.run else { return .boolean(false) }
    return runtime.function { [unowned self] arguments in run(self, arguments) }
  }

  private func targetReading(_ arguments: [LuaValue]) -> TargetReading? {
    guard let view, let id = arguments.first?.stringValue, let position = view.currentBoard.position(of: id) else {
      return nil
    }
    return TargetReading(id: id, position: position, view: view)
  }

  private func itemReading(_ arguments: [LuaValue]) -> ItemReading? {
    guard let board = view?.currentBoard, let item = board.item(arguments.first?.stringValue ?? "") else {
      return nil
    }
    return ItemReading(item: item, board: board)
  }

  /// Each kind's fields as api.lua takes them, made once: every new state asks for them.
  private static let fieldListings: [String: (names: [String], shapes: [String], descriptions: [String])] = [
    "target": listing(TargetFields.all, kind: "target"), "item": listing(ItemFields.all, kind: "item"),
    "call": listing(InfoFields.call, kind: "info"), "drag": listing(InfoFields.drag, kind: "info"),
  ]

  private static func listing<Subject>(_ fields: [HostField<Subject>], kind: String)
    -> (names: [String], shapes: [String], descriptions: [String])
  {
    (fields.map(\.name), fields.map(\.shape.rawValue), fields.map { $0.description(in: kind) })
  }

  /// The 0-based index of the field at the 1-based place `arguments[1]` of `fields`.
  private static func index<Subject>(in fields: [HostField<Subject>], _ arguments: [LuaValue]) -> Int? {
    guard arguments.count > 1, let place = arguments[1].intValue, fields.indices.contains(place - 1) else {
      return nil
    }
    return place - 1
  }

  /// Read in place: a declaration is copied for nothing (its strings and closures would
  /// be retained on every read).
  private static func read<Subject>(_ fields: [HostField<Subject>], of subject: Subject?, _ arguments: [LuaValue])
    -> [LuaValue]
  {
    guard let subject, let index = index(in: fields, arguments) else { return [] }
    return [.boolean(true), fields[index].read(subject)]
  }

  private static func readData<Subject>(
    _ fields: [HostField<Subject>], of subject: Subject?, _ arguments: [LuaValue]
  ) -> [LuaValue] {
    guard let subject, let index = index(in: fields, arguments), case .data(let data) = fields[index].reader else {
      return []
    }
    guard arguments.count > 2, let key = arguments[2].stringValue else {
      return [LuaValue(json: .object(data.whole(subject)))]
    }
    guard let value = data.value(subject, key) else { return [.boolean(false)] }
    return [.boolean(true), LuaValue(json: value)]
  }
}
