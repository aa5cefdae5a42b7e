import Testing

@testable import DropRulesModel

/// A rule of 20,000 accepted types made 150 steps a 1.3 GB JSON trace: each skip listed
/// every type. A skip names a few and counts the rest.
@Suite("Skip reasons name a bounded prefix of accepted types")
struct SkipReasonSizeTests {
  @Test("20,000 accepted types give a short detail and a short JSON skip")
  func manyAccepted() {
    let types = (0..<20_000).map { TypeIdentifier("com.example.type\($0)") }
    let skip = SkippedTarget(target: "t", reason: .notAccepted(types))
    let detail = skip.detail(atStep: 1)
    #expect(
      detail
        == "accepts com.example.type0, com.example.type1, com.example.type2, com.example.type3, com.example.type4"
        + " and 19995 more; no dragged item conforms to any of them")
    let json = StepJSON.json(skip, atStep: 1)
    #expect(json.objectValue?["accepts"]?.arrayValue?.count == SkipReason.acceptsShown)
    #expect(json.objectValue?["acceptsOmitted"] == .integer(19_995))
    #expect(json.serialized().utf8.count < 1_000)
  }

  @Test("a few accepted types are all named, with no count")
  func fewAccepted() {
    let skip = SkippedTarget(target: "t", reason: .notAccepted([TypeIdentifier("public.png")]))
    #expect(skip.detail(atStep: 1) == "accepts public.png; no dragged item conforms to any of them")
    #expect(StepJSON.json(skip, atStep: 1).objectValue?["acceptsOmitted"] == nil)
  }

  @Test("an accepted type of a megabyte is named cut")
  func longType() {
    let long = TypeIdentifier("a" + String(repeating: "\u{301}", count: 1_000_000))
    #expect(SkippedTarget(target: "t", reason: .notAccepted([long])).detail(atStep: 1).utf8.count < 300)
  }
}
