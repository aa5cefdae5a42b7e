import Foundation
import Testing

@testable import DropRulesModel

@Suite("Finding a JSON path in the text")
struct JSONLocatorTests {
  func locate(_ path: String, in text: String) -> String? {
    JSONLocator.lineAndColumn(of: path, in: Array(text.utf8)).map { "\($0.line):\($0.column)" }
  }

  static let text = """
    {
      "name": "a [tricky] {name}, with \\"quotes\\"",
      "board": {"targets": [
        {"id": "a", "frame": [0, 0, 1, 1]},
        {"id": "ü", "frame": [1,   2, "x", 4], "data": {"k.dotted": {"inner": [true, null]}, "k": 5}}
      ]},
      "steps": [[], {}, "drop"]
    }
    """

  @Test(
    "a path leads to the value it names",
    arguments: [
      ("", "1:1"),
      ("name", "2:11"),
      ("board", "3:12"),
      ("board.targets[0]", "4:5"),
      ("board.targets[1].frame[2]", "5:35"),
      ("board.targets[1].id", "5:12"),
      // A key holding a dot wins over a shorter key the path also starts with.
      ("board.targets[1].data.k.dotted.inner[1]", "5:82"),
      ("board.targets[1].data.k", "5:95"),
      ("steps[2]", "7:21"),
    ])
  func found(path: String, expected: String) {
    #expect(locate(path, in: Self.text) == expected)
  }

  @Test(
    "a path the text lacks leads as far as it goes: the object without the key, the list too short",
    arguments: [
      ("board.targets[0].type", "4:5"),
      ("board.targets[7]", "3:24"),
      ("board.targets[1].frame[9]", "5:26"),
      ("steps[0].x", "7:13"),
      ("missing.deeper", "1:1"),
      ("name.inside", "2:11"),
      ("board.targets[-1]", "3:24"),
      ("board.targets[x]", "3:24"),
    ])
  func partly(path: String, expected: String) {
    #expect(locate(path, in: Self.text) == expected)
  }

  @Test("escaped keys, a byte order mark and empty text")
  func edges() {
    #expect(locate("a\"b", in: #"{"x": 1, "a\"b": 2}"#) == "1:18")
    #expect(locate("a/b", in: #"{"a\/b": [3]}"#) == "1:10")
    #expect(locate("x", in: "\u{FEFF}{\n \"x\": 1}") == "2:7")
    #expect(JSONLocator.lineAndColumn(of: "x", in: []) == nil)
    #expect(JSONLocator.lineAndColumn(of: "x", in: Array("   ".utf8)) == nil)
  }
}
