import DropRulesTestSupport
import Testing

@testable import DropRulesModel

/// The engine's one verb, the board's version, negotiation and hit-testing, driven by
/// rules written in Swift: no Lua is linked into this test target.
@Suite("Drag steps, the board's version, negotiation and hit-testing, without Lua")
struct DragStepTests {
  let rules = SwiftRules()
  let engine: DragEngine

  init() throws { engine = try rules.engineOnTwoBoxes() }

  @Test("perform carries out every kind of step, answers its proposal or outcome, and lastStep shows it")
  func everyKindOfStep() throws {
    rules.handlers[.dropUpdated] = { _, context in
      .returned(.proposal(context.location.x < 50 ? .copy : .move, index: nil))
    }
    rules.handlers[.performDrop] = { _, _ in .returned(.boolean(true)) }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    let steps: [DragStep] = [
      .at(Point(x: 110, y: 50)), .over("b", index: nil), .modifiers([.option]),
      .outside(accepts: ["public.item"], operation: .copy), .at(Point(x: 150, y: 50)), .drop,
    ]
    var results: [DragStepResult] = []
    var shown: [StepAction] = []
    for step in steps {
      results.append(try engine.perform(step))
      shown.append(try #require(engine.lastStep).action)
    }
    #expect(
      results == [
        .proposal(.copy), .proposal(.move), .proposal(.move), .proposal(.copy), .proposal(.move),
        .outcome(.performed),
      ])
    #expect(shown == steps.map(StepAction.step))
    #expect(results.last?.outcome == .performed && results.first?.proposal == .copy)
    #expect(throws: DragError.noDrag) { try engine.perform(.cancel) }
  }

  @Test("the board's version moves on every change to the board, and never on a step that changes nothing")
  func boardVersion() throws {
    rules.handlers[.dropEntered] = { [engine] target, _ in
      _ = try? engine.stage(.setData("k", to: .bool(true), on: target))
      return .returned(.nothing)
    }
    let start = engine.version.value
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    let begun = engine.version.value
    try engine.perform(.at(Point(x: 150, y: 50)))
    let staged = engine.version.value
    #expect(staged != begun)
    for x in [160.0, 170, 180] { try engine.perform(.at(Point(x: x, y: 50))) }
    #expect(engine.version.value == staged)
    try engine.perform(.cancel)
    let rolledBack = engine.version.value
    #expect(rolledBack != staged)
    #expect(engine.board.target("b")?.data.isEmpty == true)
    try engine.replaceBoard(engine.board)
    #expect(engine.version.value != rolledBack)
    #expect(start != engine.version.value)
  }

  @Test("what rules read of the drag comes from the engine, and every change to it moves the version")
  func dragFacts() throws {
    var seen: [DragFacts] = []
    rules.handlers[.dropUpdated] = { [engine] _, _ in
      if let facts = engine.dragFacts { seen.append(facts) }
      return .returned(.proposal(.move, index: nil))
    }
    var taken: [ItemID]?
    rules.handlers[.dragEnded] = { [engine] _, _ in
      taken = engine.dragFacts?.takenOutside
      return .returned(.nothing)
    }
    #expect(engine.dragFacts == nil)
    let before = engine.version.value
    try engine.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.copy, .move]))
    #expect(engine.version.value != before)
    try engine.perform(.over("b", index: nil))
    #expect(seen.last?.items == ["x"])
    #expect(seen.last?.source == "a")
    var version = engine.version.value
    try engine.perform(.modifiers([.option]))
    #expect(engine.version.value != version)
    #expect(seen.last?.modifiers == [.option])
    version = engine.version.value
    try engine.perform(.outside(accepts: ["public.plain-text"], operation: .copy))
    #expect(engine.version.value != version, "leaving the board changes the allowed operations")
    version = engine.version.value
    try engine.perform(.drop)
    #expect(engine.version.value != version, "the items the other app took are a change rules read")
    #expect(taken == ["x"])
    #expect(engine.dragFacts == nil)
  }

  @Test("a move the drag does not allow is downgraded to copy, and the step says which limit did it")
  func negotiation() throws {
    rules.handlers[.dropUpdated] = { _, _ in .returned(.proposal(.move, index: nil)) }
    rules.handlers[.performDrop] = { _, _ in .returned(.boolean(true)) }
    try engine.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.copy]))
    #expect(try engine.perform(.over("b", index: nil)) == .proposal(.copy))
    let step = try #require(engine.lastStep)
    #expect(step.proposal == .copy)
    #expect(step.downgrade != nil)
    try engine.perform(.cancel)
  }

  @Test("a rule with no performDrop proposes nothing it cannot honour: forbidden, with why, and no drop")
  func noFalseProposals() throws {
    rules.handlers[.dropUpdated] = { _, _ in .returned(.proposal(.move, index: nil)) }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try engine.perform(.over("b", index: nil)) == .proposal(.forbidden))
    let step = try #require(engine.lastStep)
    #expect(step.downgrade?.noPerformDrop == "box")
    #expect(step.downgrade?.description.contains("has no performDrop") == true)
    rules.handlers[.dropUpdated] = nil
    #expect(try engine.perform(.modifiers([.option])) == .proposal(.forbidden), "the default copy too")
    #expect(try engine.perform(.drop) == .outcome(.cancelled))
    #expect(engine.trace.last?.outcomeReason == .noPerformDrop(target: "b", targetType: "box"))
    #expect(engine.board.items(in: "a") == ["x"])
  }

  @Test("the innermost target that takes part is entered; a target with no rule is passed over, with why")
  func hitTesting() throws {
    let targets = [
      DropTarget(id: "outer", type: "box", frame: Rect(x: 0, y: 0, width: 200, height: 200)),
      DropTarget(
        id: "inner", type: "box", frame: Rect(x: 50, y: 50, width: 100, height: 100), parent: "outer"),
      DropTarget(
        id: "label", type: "text", frame: Rect(x: 60, y: 60, width: 20, height: 20), parent: "inner"),
    ]
    try engine.replaceBoard(Board(targets: targets, items: [textItem("x")]))
    rules.handlers[.dropUpdated] = { _, _ in .returned(.proposal(.copy, index: nil)) }
    try engine.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    try engine.perform(.at(Point(x: 70, y: 70)))
    let step = try #require(engine.lastStep)
    #expect(step.target == "inner")
    #expect(step.skipped == [SkippedTarget(target: "label", reason: .noRule(targetType: "text"))])
    try engine.perform(.at(Point(x: 10, y: 10)))
    #expect(engine.lastStep?.target == "outer")
    try engine.perform(.cancel)
  }
}
