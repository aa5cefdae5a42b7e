import Testing

@testable import DropRulesModel

@Suite("TextCap: one cut, counted in Unicode scalars")
struct TextCapTests {
  @Test("a text that fits is kept whole; one scalar more is cut to limit - 1 scalars and …")
  func fitsAndCuts() {
    let cap = TextCap(scalars: 5)
    #expect(cap.cut("") == "")
    #expect(cap.cut("abcde") == "abcde")
    #expect(cap.cut("abcdef") == "abcd…")
    #expect(!cap.cuts("abcde"))
    #expect(cap.cuts("abcdef"))
    // Five scalars of several bytes each fit: the byte count only skips the walk.
    #expect(cap.cut("ééééé") == "ééééé")
    #expect(TextCap(scalars: 0).cut("ab") == "…", "the cap keeps at least its …")
  }

  @Test("one character of a million combining marks is cut, not kept whole as prefix(n) kept it")
  func combiningMarks() {
    let huge = "a" + String(repeating: "\u{301}", count: 1_000_000)
    #expect(huge.count == 1, "one Character")
    for cap in [TextCap.name, .presentation, .message] {
      let cut = cap.cut(huge)
      #expect(cut.unicodeScalars.count == cap.limit)
      #expect(cut.utf8.count <= 4 * cap.limit + 3)
      #expect(cut.hasSuffix("…"))
    }
    #expect(huge.capped(.name).utf8.count == 1 + 58 * 2 + 3)
  }

  @Test("a flag or a family emoji may be cut between its scalars, never inside one")
  func scalarBoundaries() {
    let flags = String(repeating: "🇫🇷", count: 40)
    let cut = TextCap.name.cut(flags)
    #expect(cut.unicodeScalars.count == 60)
    #expect(cut.unicodeScalars.allSatisfy { $0 == "…" || ($0.value >= 0x1F1E6 && $0.value <= 0x1F1FF) })
  }
}
