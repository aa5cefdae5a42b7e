import Testing

@testable import DropRules

/// The lines problems point at when Lua gives none: the first line that assigns a key.
@Suite("Source lines of rule keys")
struct SourceLineTests {
  static let source = """
    local other_key = 1
    local t = {}
    t.box = 2
    return {
      ["kanban.card"] = { },
      [ 'kanban.column' ] = { },
      box = {
        dropUpdated = function() return "move" end,
      },
      größe= {},
    }
    """

  @Test(
    "a key is found where it is assigned, and not inside a longer name or a field access",
    arguments: [
      ("kanban.card", 5), ("kanban.column", 6), ("box", 7), ("dropUpdated", 8), ("größe", 10), ("key", nil),
      ("missing", nil),
    ] as [(String, Int?)])
  func keyLines(key: String, line: Int?) {
    #expect(RuleFileLoader.line(ofKey: key, in: Self.source) == line)
  }

  @Test("a quoted string is found on the first line that quotes it")
  func stringLines() {
    #expect(RuleFileLoader.line(ofString: "move", in: Self.source) == 8)
    #expect(RuleFileLoader.line(ofString: "kanban.column", in: Self.source) == 6)
    #expect(RuleFileLoader.line(ofString: "box", in: Self.source) == nil)
  }
}
