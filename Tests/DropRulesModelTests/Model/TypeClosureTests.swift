import Testing

@testable import DropRulesModel

/// Type questions are answered from each type's ancestors, walked once per declaration
/// and kept: an 8,000-type chain asked against a 40,000-type `accepts` list hung the host
/// for minutes when each question walked the graph. No answer is cut short.
@Suite("Type conformance from memoized ancestors")
struct TypeClosureTests {
  static func chain(_ length: Int) -> TypeRegistry {
    var registry = TypeRegistry()
    registry.declare("t0", conformsTo: ["public.data"])
    for index in 1..<length {
      registry.declare(TypeIdentifier("t\(index)"), conformsTo: [TypeIdentifier("t\(index - 1)")])
    }
    return registry
  }

  @Test("a long chain: every ancestor conforms, however far")
  func longChain() {
    let registry = Self.chain(8_000)
    #expect(registry.conforms("t7999", to: "t7998"))
    #expect(registry.conforms("t7999", to: "t0"), "7,999 types away")
    #expect(registry.conforms("t7999", to: "public.item"))
    // t0 ... t7998, public.data and the built-in root.
    #expect(registry.ancestors(of: "t7999").count == 7_999 + 2)
    #expect(registry.conforms("t5", to: "public.item"), "a short chain reaches the built-in root")
    #expect(!registry.conforms("t5", to: "t6"))
  }

  @Test("40,000 accepted types against every type of an 8,000-type chain: each walk is done once")
  func wideAccepts() {
    let registry = Self.chain(8_000)
    let accepts = (0..<40_000).map { TypeIdentifier("u\($0)") } + ["t7000"]
    // Every type of the chain, asked twice: the second round is answered from the memo.
    for _ in 0..<2 {
      for index in stride(from: 0, to: 8_000, by: 97) {
        #expect(
          registry.conforms(TypeIdentifier("t\(index)"), toAnyOf: accepts) == (index >= 7_000))
      }
    }
  }

  @Test("a declaration after a question is seen by the next question; cycles end")
  func declarationsAndCycles() {
    var registry = TypeRegistry()
    registry.declare("a", conformsTo: ["b"])
    #expect(!registry.conforms("a", to: "c"))
    registry.declare("b", conformsTo: ["c"])
    #expect(registry.conforms("a", to: "c"))
    registry.declare("c", conformsTo: ["a"])
    #expect(registry.conforms("c", to: "b"))
    #expect(registry.ancestors(of: "a") == ["b", "c"])
    let copy = registry
    registry.declare("a", conformsTo: ["d"])
    #expect(registry.conforms("a", to: "d"))
    #expect(!copy.conforms("a", to: "d"), "a copy keeps the graph it was made with")
  }
}
