import Testing

@testable import DropRulesModel

@Suite("Text escaping for reports and traces")
struct TextEscapingTests {
  @Test("control characters, separators, bidi overrides and XML noncharacters become visible escapes")
  func escapes() {
    #expect(TextEscaping.visible("a\nb\rc\0d\u{1B}[2Je") == #"a\nb\rc\0d\u{1B}[2Je"#)
    #expect(
      TextEscaping.visible("\u{7F}\u{9B}\u{2028}\u{202E}\u{2066}\u{FFFE}\u{FFFF}")
        == #"\u{7F}\u{9B}\u{2028}\u{202E}\u{2066}\u{FFFE}\u{FFFF}"#)
  }

  @Test("ordinary text, backslashes and (unless asked) tabs are left as written")
  func keeps() {
    #expect(TextEscaping.visible(#"día %d \n "q" 名前"#) == #"día %d \n "q" 名前"#)
    #expect(TextEscaping.visible("a\tb") == "a\tb")
    #expect(TextEscaping.visible("a\tb", keepingTabs: false) == #"a\tb"#)
  }
}
