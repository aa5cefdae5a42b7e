import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

/// Time in a drag: `wait` steps pass it, `info.hoverTime` reads it (wait steps in test
/// files and scenarios: `Tests/DropRulesTestingTests/Testing/WaitStepTests.swift`; in the
/// protocol: `Tests/DropRulesToolsTests/Protocol/ProtocolWaitTests.swift`).
@Suite("Dwell: wait steps and info.hoverTime")
struct DwellTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("a target that needs 500 ms of dwell forbids, then moves after a wait; entering another starts afresh")
  func dwellThenMove() throws {
    let host = try makeHost(
      rules: SharedRules.dwell, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("b") == .forbidden)
    #expect(try host.perform(.wait(milliseconds: 300)) == .proposal(.forbidden))
    #expect(try host.movePointer(to: Point(x: 120, y: 20)) == .forbidden, "moving within the target keeps its time")
    #expect(try host.perform(.wait(milliseconds: 300)) == .proposal(.move))
    #expect(try host.moveOver("a") == .forbidden, "entering another target starts its time afresh")
    #expect(try host.moveOver("b") == .forbidden)
    #expect(try host.perform(.wait(milliseconds: 600)) == .proposal(.move))
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "b") == ["x"])
    #expect(
      host.printedLines == ["b\t0", "b\t300", "b\t300", "b\t600", "a\t0", "b\t0", "b\t600"])
    #expect(host.trace.map(\.action.description).contains("wait 600 ms"))
  }
}
