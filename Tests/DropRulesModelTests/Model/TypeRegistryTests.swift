import Testing

@testable import DropRulesModel

@Suite("Type conformance")
struct TypeRegistryTests {
  let registry = TypeRegistry()

  @Test(
    "built-in types conform transitively",
    arguments: [
      ("public.utf8-plain-text", "public.plain-text"), ("public.utf8-plain-text", "public.text"),
      ("public.utf8-plain-text", "public.data"), ("public.utf8-plain-text", "public.item"),
      ("public.png", "public.image"), ("public.png", "public.data"), ("public.vcard", "public.contact"),
      ("public.vcard", "public.text"), ("public.file-url", "public.url"), ("public.folder", "public.directory"),
    ])
  func conforms(type: String, parent: String) {
    #expect(registry.conforms(TypeIdentifier(type), to: TypeIdentifier(parent)))
  }

  @Test("conformance does not run backwards or sideways")
  func doesNotConform() {
    #expect(!registry.conforms("public.text", to: "public.plain-text"))
    #expect(!registry.conforms("public.png", to: "public.text"))
    #expect(!registry.conforms("public.jpeg", to: "public.png"))
  }

  @Test("unknown types conform only to themselves; declared ones join the graph")
  func customTypes() {
    var registry = registry
    #expect(registry.conforms("com.example.card", to: "com.example.card"))
    #expect(!registry.conforms("com.example.card", to: "public.data"))
    registry.declare("com.example.card", conformsTo: ["public.json"])
    #expect(registry.conforms("com.example.card", to: "public.text"))
    registry.declare("com.example.special-card", conformsTo: ["com.example.card"])
    #expect(registry.conforms("com.example.special-card", to: "public.item"))
  }
}
