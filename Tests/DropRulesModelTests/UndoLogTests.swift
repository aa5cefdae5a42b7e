import DropRulesTestSupport
import Testing

@testable import DropRulesModel

/// Undo records stay bounded by what a rollback can need, and every rollback still
/// lands where it must.
@Suite("The undo log keeps what a rollback can need, and no more")
struct UndoLogTests {
  let rules = SwiftRules()
  let engine: DragEngine

  init() throws { engine = try rules.engineOnTwoBoxes() }

  /// dropUpdated writes `k` on box b with the step's x, and raises when shift is held
  /// (after writing); every write also sets a drag-only key.
  func writeOnEveryStep() {
    rules.handlers[.dropUpdated] = { [engine] target, context in
      let value = JSONValue.integer(Int64(context.location.x))
      _ = try? engine.stage(.setData("k", to: value, on: target))
      _ = try? engine.setForDrag("hover", to: value, on: target)
      if engine.dragFacts?.modifiers.contains(.shift) == true {
        _ = try? engine.stage(.setData("k", to: .string("half"), on: target))
        return .failed(Diagnostic(message: "boom"))
      }
      return .returned(.proposal(.move, index: nil))
    }
    rules.handlers[.performDrop] = { _, _ in .returned(.boolean(true)) }
  }

  @Test("rewriting a key on every step keeps one record a key, and cancel restores the value from before the drag")
  func boundedAndCancelled() throws {
    writeOnEveryStep()
    try engine.replaceBoard(
      Board(
        targets: row(["a", "b"]).map {
          var target = $0; target.data = ["k": .string("start")]; return target
        },
        items: []))
    try engine.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    for x in 0..<500 { _ = try engine.movePointer(to: Point(x: 100 + Double(x % 100), y: 50)) }
    #expect(engine.undoLog.count == 2, "the external item's arrival and one record of k, not one a step")
    #expect(engine.dragOnly.changeCount == 1)
    #expect(try engine.cancel() == .cancelled)
    #expect(engine.board.target("b")?.data == ["k": .string("start")])
  }

  @Test("a failed call goes back to where it began, after earlier calls changed the same key")
  func failedCallAfterEarlierOnes() throws {
    writeOnEveryStep()
    try engine.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    _ = try engine.movePointer(to: Point(x: 110, y: 50))
    _ = try engine.movePointer(to: Point(x: 120, y: 50))
    #expect(try engine.setModifiers([.shift]) == .forbidden)
    #expect(engine.currentBoard.target("b")?.data["k"] == .integer(20), "the failed call's two writes are undone")
    #expect(engine.data(of: "b")?["hover"] == .integer(20))
    #expect(try engine.setModifiers([]) == .copy, "an external item is copied")
    #expect(try engine.drop() == .performed)
    #expect(engine.board.target("b")?.data == ["k": .integer(20)], "no drag-only key is committed")
  }
}
