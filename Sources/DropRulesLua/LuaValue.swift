/// A Lua value copied into Swift.
///
/// Scalars and strings are copied; tables are copied deeply (sequence and string keys),
/// and functions stay in Lua behind a ``LuaReference``. This enum is the only currency
/// between the runtime and the rest of droprules.
public enum LuaValue {
  case `nil`
  case boolean(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case table(LuaTable)
  case function(LuaReference)
  /// A table or other object that must keep its identity in Lua (passed back as is).
  case reference(LuaReference)

  /// The value as a string, when it is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The value as a number, when it is an integer or a float.
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// The value as an integer, when it is an integer or an integral float.
  public var intValue: Int? {
    switch self {
    case .integer(let value): Int(exactly: value)
    case .number(let value): Int(exactly: value)
    default: nil
    }
  }

  /// Lua truthiness: everything but nil and false is true.
  public var isTruthy: Bool {
    switch self {
    case .nil: false
    case .boolean(let value): value
    default: true
    }
  }

  /// The value as a copied table, when it is one.
  public var tableValue: LuaTable? {
    if case .table(let value) = self { return value }
    return nil
  }

  /// Whether the value is Lua's `nil`.
  public var isNil: Bool {
    if case .nil = self { return true }
    return false
  }

  /// The name Lua's `type()` gives the value.
  public var typeName: String {
    switch self {
    case .nil: "nil"
    case .boolean: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .table: "table"
    case .function: "function"
    case .reference: "table"
    }
  }
}

/// A Lua table copied into Swift: its sequence part and its string keys.
public struct LuaTable {
  /// The values at keys 1 to the table's raw length, in order.
  public var sequence: [LuaValue]
  /// The values at string keys.
  public var fields: [String: LuaValue]
  /// Keys that are neither string nor part of the sequence (kept out, but counted so
  /// that callers can reject such tables instead of silently losing data).
  public var otherKeyCount: Int

  /// A table to pass to Lua, with a sequence part and string keys.
  public init(sequence: [LuaValue] = [], fields: [String: LuaValue] = [:], otherKeyCount: Int = 0) {
    self.sequence = sequence
    self.fields = fields
    self.otherKeyCount = otherKeyCount
  }

  /// The value at a string key, or `nil` when there is none.
  public subscript(field: String) -> LuaValue {
    fields[field] ?? .nil
  }

  /// Whether the table had no keys at all, the ones left out (``otherKeyCount``) included.
  public var isEmpty: Bool { sequence.isEmpty && fields.isEmpty && otherKeyCount == 0 }
}

extension LuaValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByNilLiteral
{
  /// A string literal as a Lua string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// `true` or `false` as a Lua boolean.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  /// An integer literal as a Lua integer.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// `nil` as Lua's `nil`.
  public init(nilLiteral: ()) { self = .nil }
}
