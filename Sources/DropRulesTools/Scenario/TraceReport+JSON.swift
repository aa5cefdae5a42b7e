/// The JSON form of a replay: every field is data a tool can read without parsing text.
/// `droprules run --format json` prints it, and the host protocol's `trace` method
/// answers with its step list.
import DropRules

extension TraceReport {
  /// The replayed scenarios as one pretty-printed JSON document, `{"scenarios": [...]}`.
  public func json(_ results: [ScenarioResult]) -> String {
    JSONValue.object(["scenarios": .array(results.map(json))]).serialized(pretty: true)
  }

  /// One replayed scenario as the JSON trace shows it (an element of `scenarios`).
  public func json(_ result: ScenarioResult) -> JSONValue {
    var board: [String: JSONValue] = [:]
    var data: [String: JSONValue] = [:]
    var itemData: [String: JSONValue] = [:]
    for target in result.board.targets {
      board[target.id] = .array(target.items.map(JSONValue.string))
      if !target.data.isEmpty { data[target.id] = .object(target.data) }
      for id in target.items {
        if let item = result.board.item(id), !item.data.isEmpty { itemData[id] = .object(item.data) }
      }
    }
    return .object([
      "name": .string(result.scenario.name),
      "file": result.scenario.file.map(JSONValue.string) ?? .null,
      "rules": .array(result.scenario.rules.map(JSONValue.string)),
      "printed": .array(result.loadOutput.map(JSONValue.string)),
      "steps": Self.json(result.trace),
      "proposals": .array(result.proposals.map { .string($0.rawValue) }),
      "outcome": .string(result.outcome.rawValue),
      "outcomeReason": result.outcomeReason.map(Self.json) ?? .null,
      "board": .object(board),
      "data": .object(data),
      "itemData": .object(itemData),
      "errors": .array(result.diagnostics.map(Self.json)),
      "expectations": .object([
        "checked": .bool(result.scenario.expect != nil),
        "failures": .array(result.failedExpectations.map(JSONValue.string)),
      ]),
      "passed": .bool(result.passed),
    ])
  }

  /// A drag's steps as the JSON trace shows them.
  public static func json(_ steps: [TraceStep]) -> JSONValue { .array(steps.map { json($0) }) }

  /// One step as the JSON trace shows it (an element of `steps`; a test's `drag.lastStep`).
  public static func json(step: TraceStep) -> JSONValue { json(step) }

  static func json(_ step: TraceStep) -> JSONValue {
    .object([
      "number": .integer(Int64(step.number)),
      "action": json(step.action),
      "pointer": step.pointer.map(json) ?? .null,
      "target": optional(step.target),
      "calls": .array(step.calls.map(json)),
      "proposal": step.proposal.map { .string($0.rawValue) } ?? .null,
      "index": step.index.map { .integer(Int64($0)) } ?? .null,
      "over": optional(step.over),
      "edge": step.edge.map { .string($0.rawValue) } ?? .null,
      "refused": .array(step.refused.map(JSONValue.string)),
      "limits": .array(
        step.limits.map { limit in
          .object(["source": optional(limit.source), "operations": operations(limit.operations)])
        }),
      "allowed": step.allowed.map(operations) ?? .null,
      "downgrade": step.downgrade.map(json) ?? .null,
      "skipped": .array(step.skipped.map { json($0, atStep: step.number) }),
      "skippedOmitted": .integer(Int64(step.skippedOmitted)),
      "errors": .array(step.diagnostics.map(json)),
      "outcome": step.outcome.map { .string($0.rawValue) } ?? .null,
      "outcomeReason": step.outcomeReason.map(json) ?? .null,
      "printed": .array(step.printed.map(JSONValue.string)),
      "announcement": optional(step.announcement),
      "preview": step.preview.map(json) ?? .null,
      "springLoaded": .array(step.springLoaded.map(JSONValue.string)),
    ])
  }

  /// `{"target": id, "reason": "notAccepted", "detail": "accepts ...", "accepts": [...]}`:
  /// the reason's name, a sentence for people, and the reason's own data (`targetType`,
  /// `accepts`, `coveredBy`, or `step` and `raised` for a validateDrop refusal).
  static func json(_ skipped: SkippedTarget, atStep step: Int) -> JSONValue {
    var fields: [String: JSONValue] = [
      "target": .string(skipped.target), "reason": .string(skipped.reason.kind(atStep: step)),
      "detail": .string(skipped.detail(atStep: step)),
    ]
    switch skipped.reason {
    case .noRule(let type), .sourceOnly(let type): fields["targetType"] = .string(type)
    case .notAccepted(let types): fields["accepts"] = .array(types.map { .string($0.rawValue) })
    case .covered(let top): fields["coveredBy"] = .string(top)
    case .closed(let container): fields["closedIn"] = .string(container)
    case .validateDrop(let refusedAt, let raised):
      fields["step"] = .integer(Int64(refusedAt))
      fields["raised"] = .bool(raised)
    }
    return .object(fields)
  }

  /// `{"kind": "performDropReturned", "target": id, "detail": "...", "result": false}`;
  /// a `proposal` reason also has `proposal`, a `noPerformDrop` one `targetType`.
  static func json(_ reason: OutcomeReason) -> JSONValue {
    var fields: [String: JSONValue] = [
      "kind": .string(reason.kind), "target": optional(reason.target), "detail": .string(reason.description),
    ]
    switch reason {
    case .proposal(let proposal, _): fields["proposal"] = .string(proposal.rawValue)
    case .noPerformDrop(_, let type): fields["targetType"] = .string(type)
    case .performDropReturned(_, let value): fields["result"] = json(value)
    case .copyTookFromSource(_, let item, let source):
      fields["item"] = .string(item)
      fields["source"] = .string(source)
    case .noTarget, .performDropRaised: break
    }
    return .object(fields)
  }

  /// `{"kind": .string("at"), "point": [x, y]}`, `{"kind": .string("over"), "target": id, "index": n}`, ...
  static func json(_ action: StepAction) -> JSONValue {
    switch action {
    case .begin(let items): .object(["kind": .string("begin"), "items": .array(items.map(JSONValue.string))])
    case .step(.at(let point)): .object(["kind": .string("at"), "point": json(point)])
    case .step(.over(let target, let index)):
      .object(["kind": .string("over"), "target": .string(target), "index": index.map { .integer(Int64($0)) } ?? .null])
    case .step(.modifiers(let modifiers)):
      .object(["kind": .string("modifiers"), "modifiers": .array(modifiers.sorted().map { .string($0.rawValue) })])
    case .step(.outside(let accepts, let operation)):
      .object([
        "kind": .string("outside"), "accepts": .array(accepts.map { .string($0.rawValue) }),
        "operation": .string(operation.rawValue),
      ])
    case .step(.wait(let milliseconds)): .object(["kind": .string("wait"), "ms": .integer(Int64(milliseconds))])
    case .step(.frames(let frames)):
      .object([
        "kind": .string("frames"),
        "frames": .object(
          frames.mapValues(JSONValue.frame)),
      ])
    case .step(.drop): .object(["kind": .string("drop")])
    case .step(.cancel): .object(["kind": .string("cancel")])
    }
  }

  /// A call: what it returned as a value (`true`, `"move"`, `{"operation": "copy",
  /// "index": 2}`, `["copy"]`, `null`), whether it raised, and what it printed.
  static func json(_ call: HandlerCall) -> JSONValue {
    .object([
      "handler": .string(call.handler.rawValue),
      "target": .string(call.target),
      "item": optional(call.item),
      "result": call.value.map(json) ?? .null,
      "error": .bool(call.value == nil),
      "printed": .array(call.printed.map(JSONValue.string)),
    ])
  }

  /// What a handler returned, as a call's `result` in the JSON trace.
  public static func json(_ value: HandlerValue) -> JSONValue {
    switch value {
    case .nothing: .null
    case .boolean(let flag): .bool(flag)
    case .proposal(let proposal, nil): .string(proposal.rawValue)
    case .proposal(let proposal, let index?):
      .object(["operation": .string(proposal.rawValue), "index": .integer(Int64(index))])
    case .springLoading(let proposal, let index):
      .object([
        "operation": .string(proposal.rawValue), "index": index.map { .integer(Int64($0)) } ?? .null,
        "open": .bool(true),
      ])
    case .operations(let allowed): operations(allowed)
    case .preview(let preview): json(preview)
    case .text(let text): .string(text)
    // A value the host has no shape for is shown as the trace prints it.
    case .other(let text): .string(text)
    }
  }

  /// `{"title": ..., "subtitle": ..., "badge": ...}`, absent parts null.
  static func json(_ preview: DragPreview) -> JSONValue {
    .object([
      "title": .string(preview.title), "subtitle": optional(preview.subtitle), "badge": optional(preview.badge),
    ])
  }

  static func json(_ downgrade: Downgrade) -> JSONValue {
    var fields: [String: JSONValue] = [
      "from": .string(downgrade.from.rawValue), "to": .string(downgrade.to.rawValue),
      "allowed": operations(downgrade.allowed),
      // What left `from` out: null for the drag's own allowedOperations, else a source.
      "limitedBy": .array(downgrade.limitedBy.map { optional($0.source) }),
    ]
    // Only when the rule's missing performDrop, not the operations, forbade the proposal.
    if let type = downgrade.noPerformDrop { fields["noPerformDrop"] = .string(type) }
    return .object(fields)
  }

  static func json(_ point: Point) -> JSONValue {
    .array([JSONValue.coordinate(point.x), JSONValue.coordinate(point.y)])
  }

  static func json(_ diagnostic: Diagnostic) -> JSONValue {
    .object([
      "message": .string(diagnostic.message),
      "file": optional(diagnostic.file),
      "line": diagnostic.line.map { .integer(Int64($0)) } ?? .null,
      "handler": diagnostic.handler.map { .string($0.rawValue) } ?? .null,
      "target": optional(diagnostic.target),
      "step": diagnostic.step.map { .integer(Int64($0)) } ?? .null,
      "traceback": .string(diagnostic.traceback),
    ])
  }

  private static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  private static func operations(_ operations: Set<DragOperation>) -> JSONValue {
    .array(DragOperation.allCases.filter(operations.contains).map { .string($0.rawValue) })
  }
}
