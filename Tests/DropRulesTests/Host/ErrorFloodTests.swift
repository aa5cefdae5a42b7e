import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// A rule that raises on every step: the trace keeps a drag's first errors and counts
/// the rest (60,000 steps each raising 8 KiB held 638 MB).
@Suite("Rule errors in a long drag are bounded")
struct ErrorFloodTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("a drag keeps its first errors, and each later step says how many it left out")
  func flood() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function(info) error(string.rep("e", 8192)) end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    let steps = 3 * DragEngine.maximumDiagnosticsPerDrag
    try host.beginDrag(DragRequest(items: [.board("x")]))
    for step in 0..<steps { try host.movePointer(to: Point(x: 110 + Double(step % 80), y: 50)) }
    _ = try host.cancel()
    let kept = host.trace.reduce(0) { $0 + $1.diagnostics.count }
    let omitted = host.trace.reduce(0) { $0 + $1.diagnosticsOmitted }
    #expect(kept == DragEngine.maximumDiagnosticsPerDrag)
    #expect(host.diagnostics.count == DragEngine.maximumDiagnosticsPerDrag)
    #expect(omitted == host.diagnosticsDropped)
    #expect(kept + omitted >= steps, "every step raised: \(kept) kept, \(omitted) left out")
    let last = try #require(host.trace.last { $0.diagnosticsOmitted > 0 })
    #expect(StepJSON.json(last).objectValue?["errorsOmitted"] == .integer(Int64(last.diagnosticsOmitted)))
    // A new drag keeps its own first errors again.
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.movePointer(to: Point(x: 150, y: 50))
    #expect(host.trace.reduce(0) { $0 + $1.diagnostics.count } == 1)
    _ = try host.cancel()
  }
}
