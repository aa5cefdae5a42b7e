import Testing

@testable import DropRulesModel

/// The byte writer behind `serialized`: escapes exactly what JSON needs, keeps every
/// other character's bytes, and reads back as the value it wrote.
@Suite("JSON written as bytes")
struct JSONByteWriterTests {
  @Test("escapes quotes, backslashes and control characters, and nothing else")
  func escapes() {
    let text = "a\"b\\c\n\r\t\u{08}\u{0C}\u{00}\u{1F}é😀\u{7F}"
    #expect(JSONValue.string(text).serialized() == #""a\"b\\c\n\r\t\b\f\u0000\u001fé😀\#u{7F}""#)
  }

  @Test("every string of a few hundred made from awkward characters reads back as itself")
  func roundTrips() throws {
    let pieces = ["\"", "\\", "\n", "\u{00}", "\u{1F}", "a", "é", "😀", "\u{2028}", " ", "\u{7F}", "\u{FFFD}"]
    var state: UInt64 = 42
    for _ in 0..<300 {
      var text = ""
      for _ in 0..<12 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text += pieces[Int(state >> 33) % pieces.count]
      }
      let value = JSONValue.object([text: .array([.string(text), .integer(-7), .number(0.1), .bool(true), .null])])
      #expect(try JSONValue.parse(value.serialized()) == value)
      #expect(try JSONValue.parse(value.serialized(pretty: true)) == value)
    }
  }

  @Test("pretty output indents by two spaces, keys sorted")
  func pretty() {
    let value = JSONValue.object(["b": .array([.integer(1)]), "a": .object([:])])
    #expect(value.serialized(pretty: true) == "{\n  \"a\": {},\n  \"b\": [\n    1\n  ]\n}")
    #expect(value.serialized() == #"{"a":{},"b":[1]}"#)
  }
}
