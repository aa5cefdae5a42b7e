import Foundation

/// A JSON value: target data, scenario input, and machine-readable output.
///
/// Numbers come in two kinds, as in Lua 5.4: an ``integer(_:)`` holds a 64-bit integer
/// exactly (JSON `9007199254740993` stays that number, not the nearest double), and a
/// ``number(_:)`` is a double (JSON `1.0`, `0.5`, `1e3`). The two never compare equal
/// (`1` is not `1.0`), and each is written back as it was read: `1` and `1.0`.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A whole number without a fraction or an exponent, exact up to 64 bits.
  case integer(Int64)
  /// A double: a number with a fraction or an exponent, or an integer beyond 64 bits.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// The text of a ``string(_:)``; nil for anything else.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The value as a double, for either kind of number (an integer beyond 2^53 rounds).
  public var numberValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// The value as an integer: an ``integer(_:)``, or a ``number(_:)`` with a whole value
  /// that fits.
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .number(let value): Int64(exactly: value)
    default: nil
    }
  }

  /// The elements of an ``array(_:)``; nil for anything else.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The fields of an ``object(_:)``; nil for anything else.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The JSON kind, as error messages name it.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

extension JSONValue {
  /// Parses JSON text (RFC 8259, strictly; see ``JSONParseError`` for what is refused).
  public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
    let result = data.withUnsafeBytes { raw in
      Result { () throws(JSONParseError) in try JSONParser.parse(raw.bindMemory(to: UInt8.self)) }
    }
    return try result.get()
  }

  /// Parses JSON text (RFC 8259, strictly).
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    var text = text
    let result = text.withUTF8 { bytes in Result { () throws(JSONParseError) in try JSONParser.parse(bytes) } }
    return try result.get()
  }
}
