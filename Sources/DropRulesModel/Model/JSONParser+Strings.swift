/// Strings: escapes, surrogate pairs and UTF-8, checked as they are read.
extension JSONParser {
  /// A string from the opening quote at `offset`: without escapes, straight from the
  /// bytes; with them, through a buffer.
  mutating func parseString() throws(JSONParseError) -> String {
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

  mutating func parseEscapedString(start: Int, contentStart: Int) throws(JSONParseError) -> String {
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
  mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONParseError) {
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

  mutating func hexQuad(escapeStart: Int) throws(JSONParseError) -> UInt32 {
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
  mutating func skipMultibyteCharacter() throws(JSONParseError) {
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
}
