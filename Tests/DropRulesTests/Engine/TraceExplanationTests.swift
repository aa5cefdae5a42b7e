import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// The trace says why: which targets under the pointer were passed over, what limited a
/// downgrade, and why a drop was not performed.
@Suite("Trace explanations")
struct TraceExplanationTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A canvas without a rule holds a column; in the column a slot that refuses
  /// (validateDrop), in the slot a picture that accepts images only; a shelf of source
  /// handlers only lies over part of the column.
  static let nestedRules = """
    droprules.declareType("com.example.card", { conformsTo = { "public.data" } })
    return {
      column = { dropUpdated = function() return "move" end, performDrop = function() return true end },
      slot = { validateDrop = function() return false end, performDrop = function() return true end },
      picture = { accepts = { "com.example.card", "public.image" }, performDrop = function() return true end },
      shelf = { canDrag = function() return true end },
    }
    """

  static let nestedTargets = [
    DropTarget(id: "canvas", type: "canvas", frame: Rect(x: 0, y: 0, width: 1000, height: 1000)),
    DropTarget(id: "column", type: "column", frame: Rect(x: 0, y: 0, width: 300, height: 1000), parent: "canvas"),
    DropTarget(id: "slot", type: "slot", frame: Rect(x: 0, y: 0, width: 100, height: 100), parent: "column"),
    DropTarget(id: "picture", type: "picture", frame: Rect(x: 0, y: 0, width: 60, height: 60), parent: "slot"),
    DropTarget(id: "shelf", type: "shelf", frame: Rect(x: 200, y: 0, width: 100, height: 100), parent: "column"),
  ]

  func nestedHost() throws -> RuleHost {
    try makeHost(rules: Self.nestedRules, targets: Self.nestedTargets, items: [], directory: directory)
  }

  @Test("each target passed over is named with its reason, innermost first; a refusal is remembered")
  func skipReasons() throws {
    let host = try nestedHost()
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.movePointer(to: Point(x: 10, y: 10))
    let first = try #require(host.trace.last)
    #expect(first.target == "column")
    #expect(
      first.skipped == [
        SkippedTarget(target: "picture", reason: .notAccepted(["com.example.card", "public.image"])),
        SkippedTarget(target: "slot", reason: .validateDrop(step: 1, raised: false)),
      ])
    #expect(first.skipped.map { $0.reason.kind(atStep: 1) } == ["notAccepted", "validateDrop"])
    #expect(first.skipped[1].detail(atStep: 1) == "validateDrop returned false")
    // Still over the slot: it is not asked again, and the trace says it refused earlier.
    try host.movePointer(to: Point(x: 60, y: 60))
    let second = try #require(host.trace.last)
    #expect(second.calls.map(\.handler) == [.dropUpdated])
    #expect(second.skipped == [SkippedTarget(target: "slot", reason: .validateDrop(step: 1, raised: false))])
    #expect(second.skipped.first?.reason.kind(atStep: 2) == "refusedEarlier")
    #expect(
      second.skipped.first?.detail(atStep: 2)
        == "validateDrop returned false at step 1; it is asked again once the pointer leaves it")
    // Over the shelf: its rule has source handlers only.
    try host.movePointer(to: Point(x: 250, y: 50))
    #expect(host.trace.last?.skipped == [SkippedTarget(target: "shelf", reason: .sourceOnly(targetType: "shelf"))])
    // Outside the column, nothing takes part: the canvas has no rule.
    #expect(try host.movePointer(to: Point(x: 500, y: 500)) == .cancel)
    #expect(host.trace.last?.skipped == [SkippedTarget(target: "canvas", reason: .noRule(targetType: "canvas"))])
    #expect(try host.drop() == .cancelled)
    #expect(host.trace.last?.outcomeReason == .noTarget)
  }

  @Test("an over step explains only the target it names and its ancestors")
  func overStep() throws {
    let host = try nestedHost()
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOver("slot")
    // The picture, a child of the slot, is not considered by an over step: not named.
    #expect(host.trace.last?.skipped == [SkippedTarget(target: "slot", reason: .validateDrop(step: 1, raised: false))])
    try host.moveOver("canvas")
    #expect(host.trace.last?.skipped == [SkippedTarget(target: "canvas", reason: .noRule(targetType: "canvas"))])
  }

  @Test("a target under a sibling drawn on top is covered; a raising validateDrop says it raised")
  func coveredAndRaised() throws {
    let rules = """
      return {
        low = { performDrop = function() return true end },
        high = { validateDrop = function() error("no way") end, performDrop = function() return true end },
      }
      """
    let targets = [
      DropTarget(id: "under", type: "low", frame: Rect(x: 0, y: 0, width: 100, height: 100), parent: "base"),
      DropTarget(id: "over", type: "high", frame: Rect(x: 0, y: 0, width: 100, height: 100), parent: "base"),
      DropTarget(id: "base", type: "low", frame: Rect(x: 0, y: 0, width: 300, height: 300)),
    ]
    let host = try makeHost(rules: rules, targets: targets, items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.movePointer(to: Point(x: 10, y: 10))
    // The hit-test takes the sibling drawn on top (declared later); it raises, so its
    // parent takes the drag, and the sibling beneath was never asked.
    #expect(host.trace.last?.target == "base")
    #expect(
      host.trace.last?.skipped == [
        SkippedTarget(target: "over", reason: .validateDrop(step: 1, raised: true)),
        SkippedTarget(target: "under", reason: .covered(by: "over")),
      ])
    #expect(host.trace.last?.skipped.first?.detail(atStep: 1) == "validateDrop raised an error")
  }

  @Test("a step within a target that nothing cuts into repeats the last search's skips")
  func stillInside() throws {
    // The glass has no rule, covers the box whole and is drawn on top of it.
    let targets = [
      DropTarget(id: "box", type: "box", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
      DropTarget(id: "glass", type: "glass", frame: Rect(x: -50, y: -50, width: 300, height: 300)),
    ]
    let host = try makeHost(
      rules: "return { box = { performDrop = function() return true end } }", targets: targets, items: [],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    for x in stride(from: 10.0, to: 90, by: 20) { try host.movePointer(to: Point(x: x, y: 10)) }
    let expected = [SkippedTarget(target: "glass", reason: .noRule(targetType: "glass"))]
    #expect(host.trace.count == 4)
    #expect(host.trace.allSatisfy { $0.target == "box" && $0.skipped == expected })
    // A modifier step is no pointer step: it names no skips.
    try host.setModifiers([.option])
    #expect(host.trace.last?.skipped == [])
    try host.movePointer(to: Point(x: 95, y: 10))
    #expect(host.trace.last?.skipped == expected)
  }

  @Test("a drop that is not performed says why")
  func outcomeReasons() throws {
    let rules = """
      return {
        none = { dropUpdated = function() return "move" end },
        no = { performDrop = function() return false end },
        nothing = { performDrop = function() end },
        odd = { performDrop = function() return "yes" end },
        boom = { performDrop = function() error("boom") end },
        never = { dropUpdated = function() return "forbidden" end, performDrop = function() return true end },
      }
      """
    let names = ["none", "no", "nothing", "odd", "boom", "never"]
    let targets = names.enumerated().map { offset, name in
      DropTarget(id: "t-\(name)", type: name, frame: Rect(x: Double(offset) * 100, y: 0, width: 100, height: 100))
    }
    let host = try makeHost(rules: rules, targets: targets, items: [], directory: directory)
    func drop(on name: String) throws -> (DropOutcome, OutcomeReason?) {
      try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
      try host.moveOver("t-\(name)")
      let outcome = try host.drop()
      return (outcome, host.trace.last?.outcomeReason)
    }
    #expect(try drop(on: "none") == (.cancelled, .noPerformDrop(target: "t-none", targetType: "none")))
    #expect(try drop(on: "no") == (.failed, .performDropReturned(target: "t-no", value: .boolean(false))))
    #expect(try drop(on: "nothing") == (.failed, .performDropReturned(target: "t-nothing", value: .nothing)))
    #expect(try drop(on: "odd") == (.failed, .performDropReturned(target: "t-odd", value: .other("\"yes\""))))
    #expect(try drop(on: "boom") == (.failed, .performDropRaised(target: "t-boom")))
    #expect(try drop(on: "never") == (.cancelled, .proposal(.forbidden, target: "t-never")))
    #expect(
      OutcomeReason.noPerformDrop(target: "t-none", targetType: "none").description
        == "the rule for 'none' (target t-none) has no performDrop")
    #expect(
      OutcomeReason.performDropReturned(target: "t-nothing", value: .nothing).description
        == "performDrop of t-nothing returned nil; only true commits a drop")
    // A drop into an app that takes none of the items is forbidden there.
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOutside(accepting: ["public.image"])
    #expect(try host.drop() == .cancelled)
    #expect(host.trace.last?.outcomeReason == .proposal(.forbidden, target: nil))
    // A performed drop and a cancel need no reason.
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOver("t-never")
    try host.cancel()
    #expect(host.trace.last?.outcome == .cancelled)
    #expect(host.trace.last?.outcomeReason == nil)
  }

  @Test("a point inside hundreds of stacked frames names the 50 innermost and counts the rest")
  func manyStacked() throws {
    let targets = (0..<200).map { level in
      DropTarget(
        id: "layer\(level)", type: "paper", frame: Rect(x: 0, y: 0, width: 1000 - Double(level), height: 1000),
        parent: level == 0 ? nil : "layer\(level - 1)")
    }
    let host = try makeHost(rules: "return {}", targets: targets, items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    #expect(try host.movePointer(to: Point(x: 1, y: 1)) == .cancel)
    let step = try #require(host.trace.last)
    #expect(step.skipped.map(\.target) == (150..<200).reversed().map { "layer\($0)" })
    #expect(step.skipped.allSatisfy { $0.reason == .noRule(targetType: "paper") })
    #expect(step.skippedOmitted == 150)
    let json = StepJSON.json(step)
    guard case .object(let fields) = json else { throw TraceTestError.notAnObject }
    #expect(fields["skippedOmitted"] == .integer(150))
  }
}

enum TraceTestError: Error { case notAnObject }
