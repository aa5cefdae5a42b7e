import DropRules
import Testing

@testable import DropRulesWeb

@Suite("JSON inside a script element")
struct ScriptEmbeddingTests {
  @Test("no text can close the script element or open a comment, and the JSON reads back the same")
  func hostileStrings() throws {
    let hostile = [
      "</script><script>alert(1)</script>", "</SCRIPT >", "<!-- <script>", "a & b", "]]>", "\u{2028}\u{2029}",
      "<img src=x onerror=alert(1)>", "\"quoted\" \\ back\\slash", "\u{0}\u{1B}[31m", "emoji 🧨",
    ]
    let value = JSONValue.object(["lines": .array(hostile.map(JSONValue.string)), "<key>": .string("</script>")])
    let embedded = ScriptEmbedding.json(value.serialized())
    for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
      #expect(!embedded.contains(forbidden), "\(forbidden) left in the embedded JSON")
    }
    #expect(try JSONValue.parse(embedded) == value)
  }

  @Test("a template slot's name inside a value is not filled again")
  func templateFillsOnce() {
    let template = PageTemplate(text: "<a><!-- droprules:one --></a><b><!-- droprules:two --></b>")
    let filled = template.filled(["one": "<!-- droprules:two -->", "two": "2"])
    #expect(filled == "<a><!-- droprules:two --></a><b>2</b>")
  }

  @Test("the page's own files cannot end their inline element early")
  func assetsStayInline() {
    for script in [WebAssets.boardScript, WebAssets.replayScript] {
      #expect(!script.lowercased().contains("</script"))
      #expect(!script.contains("<!--"))
    }
    #expect(!WebAssets.boardStyle.lowercased().contains("</style"))
  }
}
