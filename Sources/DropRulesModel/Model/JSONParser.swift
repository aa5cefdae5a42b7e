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

  private let bytes: UnsafeBufferPointer<UInt8>
  private var offset = 0
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

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
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

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enterNesting()
    offset += 1
    var fields: [String: JSONValue] = [:]
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

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
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

  private mutating func enterNesting() throws(JSONParseError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw error("arrays and objects are nested more than \(Self.maximumDepth) levels deep")
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
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
  private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
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

  // MARK: Strings

  /// A string from the opening quote at `offset`: without escapes, straight from the
  /// bytes; with them, through a buffer.
  private mutating func parseString() throws(JSONParseError) -> String {
    let start = offset
    offset += 1
    let contentStart = offset
    while offset < bytes.count {
      let byte = bytes[offset]
      if byte == UInt8(ascii: "\"") {
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<offset]), as: UTF8.self)
        offset += 1
        return value
      }
      if byte == UInt8(ascii: "\\") { return try parseEscapedString(start: start, contentStart: contentStart) }
      if byte < 0x20 { throw error(Self.controlCharacterMessage(byte)) }
      if byte < 0x80 {
        offset += 1
      } else {
        try skipMultibyteCharacter()
      }
    }
    throw JSONParseError(at: start, in: bytes, "the text ends inside this string: its closing quote is missing")
  }

  private mutating func parseEscapedString(start: Int, contentStart: Int) throws(JSONParseError) -> String {
    var buffer = Array(bytes[contentStart..<offset])
    while offset < bytes.count {
      let byte = bytes[offset]
      switch byte {
      case UInt8(ascii: "\""):
        offset += 1
        return String(decoding: buffer, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try appendEscape(to: &buffer)
      case ..<0x20:
        throw error(Self.controlCharacterMessage(byte))
      case ..<0x80:
        buffer.append(byte)
        offset += 1
      default:
        let characterStart = offset
        try skipMultibyteCharacter()
        buffer.append(contentsOf: bytes[characterStart..<offset])
      }
    }
    throw JSONParseError(at: start, in: bytes, "the text ends inside this string: its closing quote is missing")
  }

  /// Reads the escape at `offset` (its backslash) and appends what it stands for.
  private mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONParseError) {
    let escapeStart = offset
    offset += 1
    guard offset < bytes.count else { throw error("the text ends inside an escape sequence") }
    let letter = bytes[offset]
    offset += 1
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hexQuad(escapeStart: escapeStart)
      if (0xD800...0xDBFF).contains(scalar) {
        // A high surrogate must be followed by an escaped low one: together, one scalar.
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        else {
          throw JSONParseError(
            at: escapeStart, in: bytes,
            "\\u\(Self.hex(scalar)) is a lone surrogate; it needs a \\uDC00-\\uDFFF after it")
        }
        offset += 2
        let low = try hexQuad(escapeStart: escapeStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw JSONParseError(
            at: escapeStart, in: bytes,
            "\\u\(Self.hex(scalar)) is a lone surrogate: \\u\(Self.hex(low)) after it is not a low surrogate")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw JSONParseError(at: escapeStart, in: bytes, "\\u\(Self.hex(scalar)) is a lone low surrogate")
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw JSONParseError(at: escapeStart, in: bytes, "\\u\(Self.hex(scalar)) is not a Unicode scalar")
      }
      buffer.append(contentsOf: String(unicode).utf8)
    default:
      throw JSONParseError(
        at: escapeStart, in: bytes,
        "unknown escape \(Self.escapeDescription(letter)); JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
    }
  }

  private mutating func hexQuad(escapeStart: Int) throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard offset < bytes.count, let digit = Self.hexDigit(bytes[offset]) else {
        throw JSONParseError(at: escapeStart, in: bytes, "expected four hex digits after \\u")
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }

  /// Steps over one UTF-8 encoded character of two to four bytes, checking it.
  private mutating func skipMultibyteCharacter() throws(JSONParseError) {
    let lead = bytes[offset]
    let length: Int
    var lowest: UInt8 = 0x80
    var highest: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lowest = 0xA0  // no overlong forms
    case 0xED:
      length = 3
      highest = 0x9F  // no surrogates
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xF0:
      length = 4
      lowest = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      highest = 0x8F  // nothing above U+10FFFF
    default: throw error("invalid UTF-8: byte 0x\(Self.hex(UInt32(lead), digits: 2)) cannot start a character")
    }
    guard offset + length <= bytes.count, (lowest...highest).contains(bytes[offset + 1]),
      (2..<length).allSatisfy({ bytes[offset + $0] & 0xC0 == 0x80 })
    else { throw error("invalid UTF-8: a character is cut short or malformed") }
    offset += length
  }

  // MARK: Reading bytes

  private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

  private mutating func skipWhitespace() {
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
      default: return
      }
    }
  }

  private func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private func error(_ message: String) -> JSONParseError { JSONParseError(at: offset, in: bytes, message) }

  private func endInside(_ what: String) -> String { "the text ends inside \(what)" }

  /// What is at `offset`, for a message: a word such as `'undefined'`, a character, or
  /// the end of the text.
  private func found() -> String {
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

  private static func describe(_ byte: UInt8) -> String {
    if byte == UInt8(ascii: "'") { return "a single quote (JSON strings take double quotes)" }
    return (0x21..<0x7F).contains(byte)
      ? "'\(Character(Unicode.Scalar(byte)))'" : "the control character U+\(hex(UInt32(byte)))"
  }

  private static func escapeDescription(_ letter: UInt8) -> String {
    (0x21..<0x7F).contains(letter) ? "'\\\(Character(Unicode.Scalar(letter)))'" : "\\ followed by \(describe(letter))"
  }

  private static func controlCharacterMessage(_ byte: UInt8) -> String {
    let escape: String
    switch byte {
    case 0x0A: escape = "\\n"
    case 0x0D: escape = "\\r"
    case 0x09: escape = "\\t"
    default: escape = "\\u" + hex(UInt32(byte))
    }
    return "the control character U+\(hex(UInt32(byte))) must be escaped in a string (as \(escape))"
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || isDigit(byte)
      || byte == UInt8(ascii: "_")
  }

  private static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private static func hex(_ value: UInt32, digits: Int = 4) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
