import DropRulesTestSupport
import Testing

@testable import DropRulesModel

/// Rules written in Swift: each handler is a closure over the engine.
final class SwiftRules: RuleCalling {
  typealias Body = (TargetID, HandlerContext) -> HandlerResult
  /// Changing the rules tells the engine, as loading rule files does.
  var handlers: [Handler: Body] = [:] { didSet { engine?.rulesDidChange() } }
  var accepts: [TypeIdentifier]? { didSet { engine?.rulesDidChange() } }
  weak var engine: DragEngine?
  private(set) var events: [String] = []
  /// The views the calls were given, each once.
  private(set) var views: Set<ObjectIdentifier> = []

  func rule(forTargetType type: String) -> RuleID? { type == "box" ? 0 : nil }
  func describe(_ rule: RuleID) -> RuleDescription {
    RuleDescription(
      handlers: Set(handlers.keys), accepts: accepts,
      definitions: Dictionary(
        uniqueKeysWithValues: handlers.keys.map { ($0, SourceLocation(file: "rules.swift", line: 1)) }))
  }
  func call(
    _ handler: Handler, of rule: RuleID, target: TargetID, position: Int, context: HandlerContext,
    in view: any RuleView
  ) -> HandlerResult {
    views.insert(ObjectIdentifier(view))
    guard let body = handlers[handler] else { return .notImplemented }
    events.append("\(handler.rawValue) \(target)")
    return body(target, context)
  }
  func dragDidEnd() { events.append("end") }
  func takePrintedLines() -> [String] { [] }
}

extension SwiftRules {
  /// An engine that calls these rules, on two boxes side by side, `a` holding item `x`.
  func engineOnTwoBoxes() throws -> DragEngine {
    let engine = DragEngine(rules: self)
    self.engine = engine
    try engine.replaceBoard(Board(targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")]))
    return engine
  }
}

@Suite("The drag engine, driven by rules written in Swift")
struct DragEngineTests {
  let rules = SwiftRules()
  let engine: DragEngine

  init() throws { engine = try rules.engineOnTwoBoxes() }

  @Test("staged changes are undone on cancel and reported to the rules; the board is read-only at the end")
  func rollback() throws {
    rules.handlers[.performDrop] = { _, _ in .returned(.boolean(true)) }
    rules.handlers[.dropEntered] = { [engine] target, _ in
      _ = try? engine.stage(.insert(["x"], into: target, at: nil))
      return .returned(.nothing)
    }
    rules.handlers[.dropExited] = { [engine] target, context in
      if context.outcome != nil {
        #expect(throws: StageError.readOnly) { try engine.stage(.setData("k", to: nil, on: "a")) }
      }
      return .returned(.nothing)
    }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try engine.moveOver("b") == .copy)
    #expect(engine.currentBoard.items(in: "b") == ["x"])
    #expect(engine.board.items(in: "a") == ["x"])
    #expect(try engine.cancel() == .cancelled)
    #expect(engine.board.items(in: "a") == ["x"])
    #expect(
      rules.events == [
        "dropEntered b", "dropExited b", "end",
      ])
  }

  @Test("every call is given the engine as its view: rules need no pointer back to it")
  func callsAreGivenTheEngine() throws {
    rules.handlers[.dropEntered] = { _, _ in .returned(.nothing) }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    _ = try engine.moveOver("b")
    _ = try engine.cancel()
    #expect(rules.events.first == "dropEntered b")
    #expect(rules.views == [ObjectIdentifier(engine)])
  }

  @Test("a failed handler fails safe: validateDrop refuses, dropUpdated forbids, performDrop rolls back")
  func failures() throws {
    let failure = HandlerResult.failed(Diagnostic(message: "boom"))
    rules.handlers[.dropUpdated] = { _, _ in .returned(.proposal(.move, index: 2)) }
    rules.handlers[.performDrop] = { [engine] target, context in
      #expect(context.index == 1, "2 is past b's empty list: clamped to it")
      #expect(context.operation == .move)
      _ = try? engine.stage(.setData("k", to: .bool(true), on: target))
      return failure
    }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try engine.moveOver("b") == .move)
    #expect(try engine.drop() == .failed)
    #expect(engine.board.target("b")?.data.isEmpty == true)
    #expect(engine.diagnostics.map(\.message) == ["boom"])
    #expect(engine.diagnostics.first?.step == 2)

    rules.handlers[.validateDrop] = { _, _ in failure }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try engine.moveOver("b") == .cancel)
  }

  @Test("a rule's odd return value is forbidden with a diagnostic pointing at its definition")
  func oddProposal() throws {
    rules.handlers[.dropUpdated] = { _, _ in .returned(.other("42")) }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try engine.moveOver("b") == .forbidden)
    #expect(engine.diagnostics.first?.file == "rules.swift")
    #expect(engine.diagnostics.first?.message.hasPrefix("dropUpdated returned 42;") == true)
  }

  @Test("within a target nothing overlaps, moves keep the target without a new search")
  func stableTarget() throws {
    rules.handlers[.performDrop] = { _, _ in .returned(.boolean(true)) }
    rules.handlers[.dropUpdated] = { _, context in .returned(.proposal(.move, index: Int(context.location.x))) }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    for x in [110.0, 120, 130, 199] { try engine.movePointer(to: Point(x: x, y: 50)) }
    try engine.movePointer(to: Point(x: 210, y: 50))
    #expect(engine.trace.map { $0.target ?? "-" } == ["b", "b", "b", "b", "-"])
    // Each step's own dropUpdated answered; its index is clamped to b's empty list.
    let proposed = engine.trace.map { step in
      step.calls.compactMap { call -> Int? in
        guard case .proposal(_, let index)? = call.value else { return nil }
        return index
      }.last.map(String.init) ?? "-"
    }
    #expect(proposed == ["10", "20", "30", "99", "-"])
    #expect(engine.trace.map { $0.index.map(String.init) ?? "-" } == ["1", "1", "1", "1", "-"])
    #expect(rules.events.filter { $0.hasPrefix("dropUpdated") }.count == 4)
  }

  @Test("a step's own index out of range is clamped to the list, as a proposal's is, in the trace and the spoken step")
  func stepIndexIsClamped() throws {
    rules.handlers[.performDrop] = { _, context in
      #expect(context.index == 1, "b is empty: every gap is 1")
      return .returned(.boolean(true))
    }
    rules.handlers[.dropUpdated] = { _, _ in .returned(.proposal(.move, index: nil)) }
    try engine.beginDrag(DragRequest(items: [.board("x")]))
    _ = try engine.moveOver("b", index: -5)
    #expect(engine.trace.last?.index == 1)
    #expect(engine.lastStep?.announcement == "Over b: move, position 1.")
    _ = try engine.moveOver("b", index: Int.max)
    #expect(engine.trace.last?.index == 1)
    #expect(engine.lastStep?.announcement == "Over b: move, position 1.")
    #expect(try engine.drop() == .performed)
  }
}
