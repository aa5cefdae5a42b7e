/// Reads JSON text (RFC 8259) from UTF-8 bytes into a ``JSONValue`` in one pass.
///
/// Strict: no comments, trailing commas, single quotes, leading zeros, `NaN` or
/// unescaped control characters; the text must be valid UTF-8 (a leading byte order
/// mark is skipped, as RFC 8259 allows). A number without a fraction or an exponent
/// that fits in 64 bits is an ``JSONValue/integer(_:)``, exactly; any other number is
/// a ``JSONValue/number(_:)`` (as Lua reads numerals). A key that appears twice in one
/// object, nesting deeper than ``maximumDepth``, and a number too large for a double
/// are errors. Every error names its line and column.
struct JSONParser {
  /// Arrays and objects nested deeper than this are refused: deep enough for any data,
  /// shallow enough that the recursive parser and its callers never run out of stack.
  static let maximumDepth = 512

  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0
  private var depth = 0

  private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Parses a whole JSON text: one value, with only whitespace around it.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.offset = 3 }
    parser.skipWhitespace()
    guard parser.offset < bytes.count else {
      throw parser.error("the text is empty; expected a JSON value")
    }
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.offset == bytes.count else {
      throw parser.error("expected the end of the text after the JSON value, found \(parser.found())")
    }
    return value
  }

  // MARK: Values

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard offset < bytes.count else { throw error("the text ends where a value was expected") }
    switch bytes[offset] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: throw error("expected a value, found \(found())")
    }
  }

  mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterNesting()
    offset += 1
    // Room for a request's or a step's few keys at once: growing from empty rehashed
    // each key again at every doubling.
    var fields = [String: JSONValue](minimumCapacity: 8)
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      offset += 1
      depth -= 1
      return .object(fields)
    }
    while true {
      guard peek == UInt8(ascii: "\"") else {
        if peek == UInt8(ascii: "}") {
          throw error("expected a key after ',', found '}' (JSON allows no trailing comma)")
        }
        throw error(offset < bytes.count ? "expected a key in quotes, found \(found())" : endInside("an object"))
      }
      let keyOffset = offset
      let key = try parseString()
      skipWhitespace()
      guard peek == UInt8(ascii: ":") else {
        throw error(
          offset < bytes.count ? "expected ':' after the key \"\(key)\", found \(found())" : endInside("an object"))
      }
      offset += 1
      skipWhitespace()
      let value = try parseValue()
      guard fields.updateValue(value, forKey: key) == nil else {
        throw JSONParseError(at: keyOffset, in: bytes, "duplicate key \"\(key)\" in an object")
      }
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","):
        offset += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        offset += 1
        depth -= 1
        return .object(fields)
      default:
        throw error(
          offset < bytes.count ? "expected ',' or '}' after an object member, found \(found())" : endInside("an object")
        )
      }
    }
  }

  mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enterNesting()
    offset += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      offset += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      if peek == UInt8(ascii: "]"), !elements.isEmpty {
        throw error("expected a value after ',', found ']' (JSON allows no trailing comma)")
      }
      guard offset < bytes.count else { throw error(endInside("an array")) }
      elements.append(try parseValue())
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","):
        offset += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        offset += 1
        depth -= 1
        return .array(elements)
      default:
        throw error(
          offset < bytes.count ? "expected ',' or ']' after an array element, found \(found())" : endInside("an array"))
      }
    }
  }

  mutating func enterNesting() throws(JSONParseError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw error("arrays and objects are nested more than \(Self.maximumDepth) levels deep")
    }
  }

  mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
    let count = word.utf8CodeUnitCount
    let matches =
      offset + count <= bytes.count
      && (0..<count).allSatisfy { bytes[offset + $0] == word.utf8Start[$0] }
    guard matches, offset + count == bytes.count || !Self.isWordByte(bytes[offset + count]) else {
      throw error("expected a value, found \(found())")
    }
    offset += count
    return value
  }

  // MARK: Numbers

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  mutating func parseNumber() throws(JSONParseError) -> JSONValue {
    let start = offset
    let negative = bytes[offset] == UInt8(ascii: "-")
    if negative { offset += 1 }
    guard offset < bytes.count, Self.isDigit(bytes[offset]) else {
      throw error("expected a digit after '-', found \(found())")
    }
    // Accumulated negatively, so that -9223372036854775808 fits.
    var magnitude: Int64 = 0
    var overflow = false
    let firstDigit = offset
    while offset < bytes.count, Self.isDigit(bytes[offset]) {
      if !overflow {
        let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
        let (next, o2) = times.subtractingReportingOverflow(Int64(bytes[offset] &- UInt8(ascii: "0")))
        overflow = o1 || o2
        magnitude = next
      }
      offset += 1
    }
    if bytes[firstDigit] == UInt8(ascii: "0"), offset - firstDigit > 1 {
      throw JSONParseError(at: start, in: bytes, "a number must not have leading zeros: \(text(start..<offset))")
    }
    var isFloat = false
    if peek == UInt8(ascii: ".") {
      isFloat = true
      offset += 1
      guard offset < bytes.count, Self.isDigit(bytes[offset]) else {
        throw error("expected a digit after the decimal point, found \(found())")
      }
      while offset < bytes.count, Self.isDigit(bytes[offset]) { offset += 1 }
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      isFloat = true
      offset += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
      guard offset < bytes.count, Self.isDigit(bytes[offset]) else {
        throw error("expected a digit in the exponent, found \(found())")
      }
      while offset < bytes.count, Self.isDigit(bytes[offset]) { offset += 1 }
    }
    if !isFloat && !overflow {
      if negative { return .integer(magnitude) }
      let (positive, flipped) = Int64(0).subtractingReportingOverflow(magnitude)
      if !flipped { return .integer(positive) }
    }
    // A fraction, an exponent, or an integer beyond 64 bits: a double, as Lua reads it.
    let literal = text(start..<offset)
    guard let value = Double(literal), value.isFinite else {
      throw JSONParseError(at: start, in: bytes, "the number \(literal) is too large for a double")
    }
    return .number(value)
  }

  // MARK: Reading bytes

  var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
      default: return
      }
    }
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  func error(_ message: String) -> JSONParseError { JSONParseError(at: offset, in: bytes, message) }

  func endInside(_ what: String) -> String { "the text ends inside \(what)" }

  /// What is at `offset`, for a message: a word such as `'undefined'`, a character, or
  /// the end of the text.
  func found() -> String {
    guard offset < bytes.count else { return "the end of the text" }
    let byte = bytes[offset]
    if Self.isWordByte(byte) {
      var end = offset
      while end < bytes.count, end - offset < 20, Self.isWordByte(bytes[end]) { end += 1 }
      return "'\(text(offset..<end))'"
    }
    if byte >= 0x80 {
      let end = min(offset + 4, bytes.count)
      let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        .unicodeScalars.first
      if let scalar, scalar != "\u{FFFD}" { return "'\(scalar)'" }
      return "byte 0x\(Self.hex(UInt32(byte), digits: 2)), which is not UTF-8"
    }
    return Self.describe(byte)
  }

  static func describe(_ byte: UInt8) -> String {
    if byte == UInt8(ascii: "'") { return "a single quote (JSON strings take double quotes)" }
    return (0x21..<0x7F).contains(byte)
      ? "'\(Character(Unicode.Scalar(byte)))'" : "the control character U+\(hex(UInt32(byte)))"
  }

  static func escapeDescription(_ letter: UInt8) -> String {
    (0x21..<0x7F).contains(letter) ? "'\\\(Character(Unicode.Scalar(letter)))'" : "\\ followed by \(describe(letter))"
  }

  static func controlCharacterMessage(_ byte: UInt8) -> String {
    let escape: String
    switch byte {
    case 0x0A: escape = "\\n"
    case 0x0D: escape = "\\r"
    case 0x09: escape = "\\t"
    default: escape = "\\u" + hex(UInt32(byte))
    }
    return "the control character U+\(hex(UInt32(byte))) must be escaped in a string (as \(escape))"
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  static func isWordByte(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || isDigit(byte)
      || byte == UInt8(ascii: "_")
  }

  static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  static func hex(_ value: UInt32, digits: Int = 4) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
