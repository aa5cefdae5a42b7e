extension LuaValue {
  /// The Lua form of JSON data: objects and arrays become tables, null becomes nil, an
  /// integer a Lua integer and a double a Lua float (`1.0` stays a float).
  public init(json: JSONValue) {
    switch json {
    case .null: self = .nil
    case .bool(let value): self = .boolean(value)
    case .integer(let value): self = .integer(value)
    case .number(let value): self = .number(value)
    case .string(let value): self = .string(value)
    case .array(let values): self = .table(LuaTable(sequence: values.map(LuaValue.init(json:))))
    case .object(let fields): self = .table(LuaTable(fields: fields.mapValues(LuaValue.init(json:))))
    }
  }

  /// The JSON form of a Lua value, or a message saying why it has none. A Lua integer
  /// becomes an exact ``JSONValue/integer(_:)``, a float a ``JSONValue/number(_:)``.
  public func json() -> Result<JSONValue, LuaHostError> {
    switch self {
    case .nil: return .success(.null)
    case .boolean(let value): return .success(.bool(value))
    case .integer(let value): return .success(.integer(value))
    case .number(let value):
      guard value.isFinite else { return .failure(LuaHostError("numbers must be finite to be stored as data")) }
      return .success(.number(value))
    case .string(let value): return .success(.string(value))
    case .table(let table):
      guard table.otherKeyCount == 0 else {
        return .failure(LuaHostError("tables stored as data need string keys or a sequence 1..n"))
      }
      if !table.sequence.isEmpty && !table.fields.isEmpty {
        return .failure(LuaHostError("a table stored as data cannot mix a list part and named keys"))
      }
      if table.fields.isEmpty && !table.sequence.isEmpty {
        var values: [JSONValue] = []
        for element in table.sequence {
          switch element.json() {
          case .success(let value): values.append(value)
          case .failure(let error): return .failure(error)
          }
        }
        return .success(.array(values))
      }
      var fields: [String: JSONValue] = [:]
      for (key, element) in table.fields {
        switch element.json() {
        case .success(let value): fields[key] = value
        case .failure(let error): return .failure(error)
        }
      }
      return .success(.object(fields))
    case .function:
      return .failure(LuaHostError("functions cannot be stored as data"))
    case .reference:
      return .failure(
        LuaHostError("tables with a metatable (host objects, views of other rules' values) cannot be stored as data"))
    }
  }
}
