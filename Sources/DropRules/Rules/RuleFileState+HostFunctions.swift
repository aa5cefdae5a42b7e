import Foundation

/// The Swift functions behind api.lua. Each reads the engine's staged board or stages a
/// change through the engine; misuse returns `nil, message` so that api.lua raises the
/// error at the rule's own line. A change returns `true` and the ids of the targets it
/// touched, whose objects then forget what they read.
extension RuleFileState {
  func makeHostFunctions() -> [String: LuaValue] {
    let lua = runtime
    return [
      // Whether a target is on the board: api.lua makes no object for one that is not.
      "targetExists": lua.function { [unowned self] arguments in targetExists(arguments) },
      "dragItems": lua.function { [unowned self] _ in
        guard let facts = view?.dragFacts else { return [] }
        return [
          .table(LuaTable(sequence: facts.items.map(LuaValue.string))), facts.source.map(LuaValue.string) ?? .nil,
        ]
      },
      "declareType": lua.function { [unowned self] arguments in
        guard isLoading else {
          return [
            .nil,
            .string(
              "droprules.declareType is a load-time call: call it at the top of a rule file, "
                + "not in a handler (a type declared mid-drag would change what every rule file sees)"),
          ]
        }
        let id = arguments.first?.stringValue ?? ""
        guard !id.isEmpty else { return [.nil, .string("droprules.declareType: the type identifier is empty")] }
        guard !TypeRegistry.isBuiltIn(TypeIdentifier(id)) else {
          return [
            .nil,
            .string(
              "droprules.declareType: '\(id.capped(.name))' is a built-in type, and what it conforms to is the same for every "
                + "rule file; declare a type of your own that conforms to it instead"),
          ]
        }
        let type = TypeIdentifier(id)
        let parents = Self.typeList(arguments.dropFirst().first)
        // Every type a file names counts, its parents too: a type's answers walk all it
        // conforms to, so the graph every file's questions walk stays bounded, and the
        // host keeps every name, so their bytes are bounded too.
        let named = typesNamedHere.union([type]).union(parents)
        let namedBytes = typeNameBytesHere + named.subtracting(typesNamedHere).reduce(0) { $0 + $1.rawValue.utf8.count }
        guard named.count <= Self.typesNamedPerFile, namedBytes <= Self.typeNameBytesPerFile else {
          return [
            .nil,
            .string(
              "droprules.declareType: a rule file may name at most \(Self.typesNamedPerFile) types in its "
                + "declarations, of \(Self.typeNameBytesPerFile / 1024) KiB in all, and '\(id.capped(.name))' would "
                + "make it \(named.count) of \(namedBytes) bytes; declare the types your rules accept, not every "
                + "type there is"),
          ]
        }
        typesNamedHere = named
        typeNameBytesHere = namedBytes
        // Declared already, by the scenario or another file: declaring it again may repeat
        // what it conforms to, never add to it, or one file would change another's type.
        if let existing = view?.types.directParents(of: type), !typesDeclaredHere.contains(type) {
          let added = parents.filter { $0 != type && !existing.contains($0) }
          guard added.isEmpty else {
            let known = existing.map(\.rawValue).sorted().joined(separator: ", ")
            return [
              .nil,
              .string(
                "droprules.declareType: '\(id)' is declared already (by the scenario or another rule file), "
                  + "conforming to \(known.isEmpty ? "nothing" : known); a file cannot add "
                  + "\(added.map(\.rawValue).joined(separator: ", ")) to it, since what a type conforms to is the same "
                  + "for every rule file: declare a type of your own that conforms to it instead"),
            ]
          }
        } else {
          typesDeclaredHere.insert(type)
        }
        do {
          try view?.declareType(type, conformsTo: parents)
        } catch {
          return [.nil, .string("droprules.declareType: \(error)")]
        }
        return [.boolean(true)]
      },
      "decodeJSON": lua.function { [unowned self] arguments in
        guard let text = arguments.first?.stringValue else {
          return [
            .nil, .string("droprules.decodeJSON expects a string, got \(arguments.first?.typeName ?? "nothing")"),
          ]
        }
        // Decoded values take several times their text, and each value (a number of two
        // bytes too) is held three times on its way into Lua: refuse what cannot fit.
        guard Self.decodingBytes(of: text) <= runtime.memoryAvailable else {
          return [
            .nil, .string("droprules.decodeJSON: \(runtime.memoryLimitMessage) (the text is too long to decode)"),
          ]
        }
        guard let value = try? JSONValue.parse(Data(text.utf8)) else {
          return [
            .nil, .string("droprules.decodeJSON: not valid JSON (\(Self.jsonProblem(in: text))): \(text.prefix(60))"),
          ]
        }
        return [LuaValue(json: value)]
      },
      "encodeJSON": lua.function { [unowned self] arguments in
        let text: String
        switch (arguments.first ?? .nil).json() {
        case .success(let value): text = value.serialized()
        case .failure(let error): return [.nil, .string("droprules.encodeJSON: \(error.description)")]
        }
        guard text.utf8.count <= runtime.memoryAvailable else {
          return [.nil, .string("droprules.encodeJSON: \(runtime.memoryLimitMessage) (the JSON text is too long)")]
        }
        return [.string(text)]
      },
      "conforms": lua.function { [unowned self] arguments in
        let type = TypeIdentifier(arguments.first?.stringValue ?? "")
        return [.boolean(types.conforms(type, toAnyOf: Self.typeList(arguments.dropFirst().first)))]
      },
    ]
  }

  var board: Board? { view?.currentBoard }

  var types: TypeRegistry { view?.types ?? TypeRegistry() }

  /// Where and why `text` is not JSON: line, column and message. Text that failed is
  /// parsed a second time for them; valid text never is.
  private static func jsonProblem(in text: String) -> String {
    do {
      _ = try JSONValue.parse(text)
      return "unknown problem"
    } catch {
      return error.description
    }
  }

  static func typeList(_ value: LuaValue?) -> [TypeIdentifier] {
    switch value ?? .nil {
    case .string(let type): [TypeIdentifier(type)]
    case .table(let table): table.sequence.compactMap(\.stringValue).map { TypeIdentifier($0) }
    default: []
    }
  }

  /// The most types a file's declarations may name, its own and their parents.
  static let typesNamedPerFile = 1_024
  /// The most bytes the type identifiers a file's declarations name may have in all.
  static let typeNameBytesPerFile = 256 * 1024

  /// What one copy is charged besides its id: the item's entry in the board's index.
  static let bytesPerCopy = 160

  /// An upper bound on what decoding `text` holds at once, in Swift and in Lua: every
  /// value (at most one per `,`, `:`, `[` or `{`, and one more) costs about
  /// `bytesPerDecodedValue`, and the text itself about three times over.
  static func decodingBytes(of text: String) -> Int {
    var values = 1
    for byte in text.utf8
    where byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[")
      || byte == UInt8(ascii: "{")
    {
      values += 1
    }
    let (total, overflow) = values.multipliedReportingOverflow(by: bytesPerDecodedValue)
    return overflow ? .max : total.addingReportingOverflow(text.utf8.count * 3).partialValue
  }

  /// A decoded value in Swift (JSON, then Lua form), in the push plan and in a Lua table.
  static let bytesPerDecodedValue = 200
}
