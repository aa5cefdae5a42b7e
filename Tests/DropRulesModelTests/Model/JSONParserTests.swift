import Foundation
import Testing

@testable import DropRulesModel

@Suite("JSON text: strict parsing, exact integers, errors with line and column")
struct JSONParserTests {
  @Test("integers are exact to 64 bits; a fraction or an exponent makes a double")
  func numbers() throws {
    let value = try JSONValue.parse(
      "[9007199254740993, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 1, -0, 0.5, 1e3, 2E-2]")
    #expect(
      value
        == .array([
          .integer(9_007_199_254_740_993), .integer(.max), .integer(.min), .number(9_223_372_036_854_775_808.0),
          .number(1.0), .integer(1), .integer(0), .number(0.5), .number(1000), .number(0.02),
        ]))
    #expect(JSONValue.integer(1) != JSONValue.number(1.0))
  }

  @Test("strings: escapes, surrogate pairs, UTF-8 as it is")
  func strings() throws {
    let value = try JSONValue.parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", "é😀", ""]"#)
    #expect(value == .array([.string("a\"b\\c/d\u{8}\u{c}\n\r\t"), .string("é😀"), .string("é😀"), .string("")]))
  }

  @Test("objects, literals, whitespace and a byte order mark")
  func structure() throws {
    let value = try JSONValue.parse("\u{FEFF} {\"a\": [true, false, null], \"b\": {}, \"c\": []}\r\n\t")
    #expect(value == .object(["a": .array([.bool(true), .bool(false), .null]), "b": .object([:]), "c": .array([])]))
    #expect(try JSONValue.parse("42") == .integer(42))
  }

  @Test(
    "malformed text is an error naming its line and column",
    arguments: [
      ("", 1, 1, "the text is empty; expected a JSON value"),
      ("{\"board\": {\"targets\": [], \"drag\": ", 1, 35, "the text ends where a value was expected"),
      ("{\n  \"board\": {\"targets\": [,]}\n}", 2, 25, "expected a value, found ','"),
      ("{\"a\": 1,}", 1, 9, "expected a key after ',', found '}' (JSON allows no trailing comma)"),
      ("[1, 2,]", 1, 7, "expected a value after ',', found ']' (JSON allows no trailing comma)"),
      ("{'a': 1}", 1, 2, "expected a key in quotes, found a single quote (JSON strings take double quotes)"),
      ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
      ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
      ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after an object member, found '\"'"),
      ("[01]", 1, 2, "a number must not have leading zeros: 01"),
      ("[-]", 1, 3, "expected a digit after '-', found ']'"),
      ("[1.]", 1, 4, "expected a digit after the decimal point, found ']'"),
      ("[1e]", 1, 4, "expected a digit in the exponent, found ']'"),
      ("[1e400]", 1, 2, "the number 1e400 is too large for a double"),
      ("[NaN]", 1, 2, "expected a value, found 'NaN'"),
      ("[undefined]", 1, 2, "expected a value, found 'undefined'"),
      ("[tru]", 1, 2, "expected a value, found 'tru'"),
      ("[truex]", 1, 2, "expected a value, found 'truex'"),
      ("[\"é\", \"a\nb\"]", 1, 9, "the control character U+000A must be escaped in a string (as \\n)"),
      ("[\"a\\x\"]", 1, 4, "unknown escape '\\x'; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"),
      ("[\"\\u12\"]", 1, 3, "expected four hex digits after \\u"),
      ("[\"\\ud800\"]", 1, 3, "\\uD800 is a lone surrogate; it needs a \\uDC00-\\uDFFF after it"),
      ("[\"\\udc00\"]", 1, 3, "\\uDC00 is a lone low surrogate"),
      ("[\"abc", 1, 2, "the text ends inside this string: its closing quote is missing"),
      ("{\"a\": [1, 2", 1, 12, "the text ends inside an array"),
      ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\" in an object"),
      ("[1] x", 1, 5, "expected the end of the text after the JSON value, found 'x'"),
      ("// comment\n[]", 1, 1, "expected a value, found '/'"),
    ])
  func malformed(text: String, line: Int, column: Int, message: String) {
    #expect(
      throws: JSONParseError(
        offset: offsetOf(line: line, column: column, in: text), line: line, column: column, message: message)
    ) {
      try JSONValue.parse(text)
    }
  }

  @Test("bytes that are not UTF-8 are refused where they are")
  func invalidUTF8() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
    ] {
      #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(bytes)) }
    }
    let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(Data([0x5B, 0x0A, 0xFF, 0x5D])) }
    #expect(error?.description == "line 2, column 1: expected a value, found byte 0xFF, which is not UTF-8")
  }

  @Test("nesting deeper than 512 levels is refused with a clear error, never a stack overflow")
  func deepNesting() throws {
    let error = #expect(throws: JSONParseError.self) {
      try JSONValue.parse(String(repeating: "[", count: 100_000))
    }
    #expect(error?.description == "line 1, column 513: arrays and objects are nested more than 512 levels deep")
    let objects = String(repeating: "{\"a\":", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(objects) }

    let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    var value = try JSONValue.parse(deepest)
    var depth = 0
    while case .array(let elements) = value {
      depth += 1
      value = elements.first ?? .null
    }
    #expect(depth == 512)
  }

  @Test("serialized text reads back as the same value: integers exact, doubles stay doubles")
  func roundTrip() throws {
    let value = JSONValue.object([
      "big": .integer(9_007_199_254_740_993), "max": .integer(.max), "min": .integer(.min), "one": .number(1),
      "tenth": .number(0.1), "huge": .number(1e300), "text": .string("a\"b\\\n\u{1}é/"),
      "list": .array([.null, .bool(true)]),
      "empty": .object([:]), "none": .array([]),
    ])
    let compact = value.serialized()
    #expect(compact.contains(#""big":9007199254740993"#))
    #expect(compact.contains(#""max":9223372036854775807"#))
    #expect(compact.contains(#""one":1.0"#))
    #expect(compact.contains(#""text":"a\"b\\\n\u0001é/""#))
    #expect(try JSONValue.parse(compact) == value)
    #expect(try JSONValue.parse(value.serialized(pretty: true)) == value)
    #expect(JSONValue.object(["a": .array([.integer(1)])]).serialized(pretty: true) == "{\n  \"a\": [\n    1\n  ]\n}")
  }

  /// The byte offset of a 1-based line and column (columns in characters).
  private func offsetOf(line: Int, column: Int, in text: String) -> Int {
    var currentLine = 1
    var currentColumn = 1
    var offset = 0
    for character in text.unicodeScalars {
      if currentLine == line && currentColumn == column { return offset }
      if character == "\n" {
        currentLine += 1
        currentColumn = 1
      } else {
        currentColumn += 1
      }
      offset += String(character).utf8.count
    }
    return offset
  }
}
