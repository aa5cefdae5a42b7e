/// Lets apps keep JSON values in their own `Codable` types. droprules itself reads and
/// writes JSON text with ``JSONValue/parse(_:)-(Data)`` and ``JSONValue/serialized(pretty:)``,
/// which are faster, keep integers exact and tell `1` from `1.0`; a `Codable` coder
/// may not (Foundation's `JSONDecoder` reads `1.0` as the integer 1).
extension JSONValue: Codable {
  /// Decodes any JSON value; an integer stays an ``integer(_:)``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if decoder.userInfo[.exactJSONValues] != nil {
      self = try JSONValue.parse(try container.decode(String.self))
    } else if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value as the JSON it stands for.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if encoder.userInfo[.exactJSONValues] != nil { return try container.encode(serialized()) }
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension CodingUserInfoKey {
  /// Set (to anything) in a coder's `userInfo`, JSON values travel as droprules' own
  /// JSON text, which keeps what a `Codable` coder loses (`1.0` from `1`, `-0.0`): a rule
  /// file's worker process reads the board exactly as its host holds it.
  // swift-format-ignore: NeverForceUnwrap
  package static let exactJSONValues = CodingUserInfoKey(rawValue: "droprules.exactJSONValues")!
}
