import DropRules
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesModel
@testable import DropRulesTools

/// `droprules serve` writes a step's answer straight into text; a trace holds the same
/// step as a value. Both come from one description of a step, and its text is the text
/// the value serializes to, byte for byte.
@Suite("Steps written as text and as values")
struct StepTextTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  static var bundledScenarios: [String] {
    FileDiscovery.files(in: [packageRoot + "/rules"], recursive: true) { $0.hasSuffix(".scenario.json") }.files
  }

  static func text(_ step: TraceStep) -> String {
    let writer = JSONTextWriter()
    StepJSON.write(step, into: writer)
    return writer.text
  }

  @Test("every step of every bundled scenario is written as its value serializes")
  func bundledSteps() throws {
    let scenarios = Self.bundledScenarios
    #expect(scenarios.count >= 10)
    var steps = 0
    for path in scenarios {
      let result = try ScenarioRunner().run(try ScenarioDecoder.load(path: path))
      for step in result.trace {
        #expect(Self.text(step) == TraceReport.json(step: step).serialized(), "\(path) step \(step.number)")
        steps += 1
      }
    }
    #expect(steps > 50)
  }

  @Test("steps with errors, skips, downgrades, previews, reasons and odd text are written as their values")
  func unusualSteps() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "box.lua",
      #"""
      return {
        box = {
          dropUpdated = function(info, target)
            print("tab\there \"quoted\" \u{1}")
            if target.id == "b" then error("broken\nrule") end
            return { operation = "move", index = 1 }
          end,
          dragPreview = function() return { title = "é ✓", subtitle = "\0", badge = "2" } end,
          performDrop = function() return false end,
        },
        shelf = { validateDrop = function() return false end },
      }
      """#)
    let scenario = try directory.write(
      "odd.scenario.json",
      """
      {"name": "odd", "rules": ["box.lua"],
       "board": {"targets": [
         {"id": "a", "type": "box", "frame": [0, 0, 100, 100]},
         {"id": "b", "type": "box", "frame": [100, 0, 100, 100]},
         {"id": "s", "type": "shelf", "frame": [200, 0, 100, 100]},
         {"id": "n", "type": "none", "frame": [300, 0, 100, 100]}]},
       "drag": {"items": [{"id": "x"}], "allowedOperations": ["copy"], "modifiers": ["option"]},
       "steps": [{"at": [50.25, 50]}, {"at": [150, 50]}, {"at": [250, 50]}, {"at": [350, 50]},
                 {"wait": 10}, {"modifiers": []}, {"at": [50, 50]}, "drop"]}
      """)
    let result = try ScenarioRunner().run(try ScenarioDecoder.load(path: scenario))
    #expect(result.trace.count >= 8)
    for step in result.trace {
      #expect(Self.text(step) == TraceReport.json(step: step).serialized(), "step \(step.number)")
    }
    var begin = TraceStep(number: 0, action: .begin(["x", "y\u{7F}"]))
    begin.preview = DragPreview(title: "é ✓", subtitle: "\0", badge: nil)
    begin.springLoaded = ["folder"]
    begin.limits = [
      OperationLimit(source: nil, operations: [.copy, .move]), OperationLimit(source: "s", operations: []),
    ]
    begin.allowed = [.move, .copy]
    begin.refused = ["locked"]
    begin.over = "x"
    begin.edge = ItemEdge.allCases.last
    begin.pointer = Point(x: -0.000001, y: 1e300)
    var frames = TraceStep(
      number: 9,
      action: .step(
        .frames(["b": Rect(x: 1.5, y: 0, width: 2, height: 3), "a": Rect(x: 0, y: 0, width: 0, height: 0)])))
    frames.calls = [HandlerCall(handler: .dragPreview, target: "a", item: "x", value: .text("a\u{2028}b"))]
    for step in [begin, frames] {
      #expect(Self.text(step) == TraceReport.json(step: step).serialized(), "step \(step.number)")
    }
    let texts = (result.trace + [begin]).map(Self.text).joined()
    for part in ["\"downgrade\":{", "\"errors\":[{", "\"reason\":", "\"outcomeReason\":{", "\"preview\":{", "\\t"] {
      #expect(texts.contains(part), "no \(part) in the steps")
    }
  }

  @Test("hostile values (NaN, infinities, huge and odd text) are written as their values serialize, as JSON")
  func hostileSteps() throws {
    var step = TraceStep(number: 3, action: .step(.at(Point(x: .nan, y: -.infinity))))
    step.pointer = Point(x: .infinity, y: .nan)
    let odd = String(repeating: "\u{0}\u{1F}\"\\é\u{2028}", count: 20_000)
    step.calls = [
      HandlerCall(handler: .dropUpdated, target: odd, value: .other(odd), printed: [odd]),
      HandlerCall(handler: .dragPreview, target: "t", value: .preview(DragPreview(title: odd))),
      HandlerCall(handler: .dropUpdated, target: "t", value: .springLoading(.move, index: nil)),
      HandlerCall(handler: .dropUpdated, target: "t", value: .proposal(.copy, index: Int.max)),
      HandlerCall(handler: .dragOperations, target: "t", value: .operations([])),
    ]
    step.announcement = odd
    let text = Self.text(step)
    #expect(text == TraceReport.json(step: step).serialized())
    // JSON has no NaN or infinity: they are null, and the text reads back.
    let parsed = try JSONValue.parse(Data(text.utf8))
    guard case .object(let fields) = parsed else {
      Issue.record("not an object: \(text.prefix(80))")
      return
    }
    #expect(fields["pointer"] == .array([.null, .null]))
    #expect(fields["announcement"] == .string(odd))
  }

  @Test("integers are written as their decimal text, the extremes too")
  func integers() {
    for value: Int64 in [0, 7, -7, 10, 99, 100, -100, 1_234_567_890, .max, .min] {
      let writer = JSONTextWriter(capacity: 1)
      writer.integer(value)
      writer.string("é\u{0}")
      #expect(writer.text == String(value) + ",\"é\\u0000\"")
    }
  }
}
