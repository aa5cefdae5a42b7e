/// A trace step as JSON: the one description of a step that the JSON trace, the host
/// protocol's answers and a test's `drag.lastStep` all come from, written against
/// ``JSONSink``. Here, beside the writer, so that writing a step straight into text is
/// specialized and inlined in one module: from another module every key went through the
/// sink protocol's witness table.
package enum StepJSON {
  package static func json(_ step: TraceStep) -> JSONValue { JSONValueBuilder.build { write(step, to: &$0) } }

  /// Writes one step straight into text: the description specialized for the writer
  /// here, where both live (a generic call from another module is not specialized).
  package static func write(_ step: TraceStep, into writer: JSONTextWriter) {
    var sink = writer
    write(step, to: &sink)
  }

  /// Writes one step as the JSON trace shows it: the one description of a step, which
  /// `json(_:)` builds a value from and `droprules serve` writes straight into its
  /// answer. Members in sorted key order; the rare parts (skips, errors, reasons) as values.
  static func write<Sink: JSONSink>(_ step: TraceStep, to sink: inout Sink) {
    sink.beginObject()
    sink.key("action")
    write(step.action, to: &sink)
    sink.key("allowed")
    if let allowed = step.allowed { write(allowed, to: &sink) } else { sink.null() }
    sink.key("announcement")
    sink.string(step.announcement)
    sink.key("calls")
    sink.beginArray()
    for call in step.calls { write(call, to: &sink) }
    sink.endArray()
    sink.key("downgrade")
    if let downgrade = step.downgrade { sink.value(json(downgrade)) } else { sink.null() }
    sink.key("edge")
    sink.string(step.edge?.rawValue)
    sink.key("errors")
    sink.array(step.diagnostics, json)
    // Only when some were left out: traces of drags within the cap read as before.
    if step.diagnosticsOmitted > 0 {
      sink.key("errorsOmitted")
      sink.integer(step.diagnosticsOmitted)
    }
    sink.key("index")
    sink.integer(step.index)
    sink.key("limits")
    sink.beginArray()
    for limit in step.limits {
      sink.beginObject()
      sink.key("operations")
      write(limit.operations, to: &sink)
      sink.key("source")
      sink.string(limit.source)
      sink.endObject()
    }
    sink.endArray()
    sink.key("number")
    sink.integer(step.number)
    sink.key("outcome")
    sink.string(step.outcome?.rawValue)
    sink.key("outcomeReason")
    if let reason = step.outcomeReason { sink.value(json(reason)) } else { sink.null() }
    sink.key("over")
    sink.string(step.over)
    sink.key("pointer")
    if let pointer = step.pointer { write(pointer, to: &sink) } else { sink.null() }
    sink.key("preview")
    if let preview = step.preview { write(preview, to: &sink) } else { sink.null() }
    sink.key("printed")
    sink.strings(step.printed)
    sink.key("proposal")
    sink.string(step.proposal?.rawValue)
    sink.key("refused")
    sink.strings(step.refused)
    sink.key("skipped")
    sink.array(step.skipped) { json($0, atStep: step.number) }
    sink.key("skippedOmitted")
    sink.integer(step.skippedOmitted)
    sink.key("springLoaded")
    sink.strings(step.springLoaded)
    sink.key("target")
    sink.string(step.target)
    sink.endObject()
  }

  /// `{"target": id, "reason": "notAccepted", "detail": "accepts ...", "accepts": [...]}`:
  /// the reason's name, a sentence for people, and the reason's own data (`targetType`,
  /// `accepts` (its first five, and `acceptsOmitted` counting the rest), `coveredBy`, or
  /// `step` and `raised` for a validateDrop refusal).
  static func json(_ skipped: SkippedTarget, atStep step: Int) -> JSONValue {
    var fields: [String: JSONValue] = [
      "target": .string(skipped.target), "reason": .string(skipped.reason.kind(atStep: step)),
      "detail": .string(skipped.detail(atStep: step)),
    ]
    switch skipped.reason {
    case .noRule(let type), .sourceOnly(let type): fields["targetType"] = .string(type)
    case .notAccepted(let types):
      // A bounded prefix and a count: the whole list on every step made 150 steps over a
      // rule of 20,000 types a 1.3 GB trace.
      fields["accepts"] = .array(SkipReason.shownAccepts(types).map(JSONValue.string))
      if types.count > SkipReason.acceptsShown {
        fields["acceptsOmitted"] = .integer(Int64(types.count - SkipReason.acceptsShown))
      }
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
  package static func json(_ reason: OutcomeReason) -> JSONValue {
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
    case .containedItself(_, let item, let opened, let destination):
      fields["item"] = .string(item)
      fields["opened"] = .string(opened)
      fields["destination"] = .string(destination)
    case .noTarget, .performDropRaised: break
    }
    return .object(fields)
  }

  /// `{"kind": "at", "point": [x, y]}`, `{"index": n, "kind": "over", "target": id}`, ...
  static func write<Sink: JSONSink>(_ action: StepAction, to sink: inout Sink) {
    sink.beginObject()
    switch action {
    case .begin(let items):
      sink.key("items")
      sink.strings(items)
      kind("begin")
    case .step(.at(let point)):
      kind("at")
      sink.key("point")
      write(point, to: &sink)
    case .step(.over(let target, let index)):
      sink.key("index")
      sink.integer(index)
      kind("over")
      sink.key("target")
      sink.string(target)
    case .step(.modifiers(let modifiers)):
      kind("modifiers")
      sink.key("modifiers")
      sink.strings(modifiers.sorted().map(\.rawValue))
    case .step(.outside(let accepts, let operation)):
      sink.key("accepts")
      sink.strings(accepts.map(\.rawValue))
      kind("outside")
      sink.key("operation")
      sink.string(operation.rawValue)
    case .step(.wait(let milliseconds)):
      kind("wait")
      sink.key("ms")
      sink.integer(milliseconds)
    case .step(.frames(let frames)):
      sink.key("frames")
      sink.value(.object(frames.mapValues(JSONValue.frame)))
      kind("frames")
    case .step(.drop): kind("drop")
    case .step(.cancel): kind("cancel")
    }
    sink.endObject()
    func kind(_ name: String) {
      sink.key("kind")
      sink.string(name)
    }
  }

  /// A call: what it returned as a value (`true`, `"move"`, `{"operation": "copy",
  /// "index": 2}`, `["copy"]`, `null`), whether it raised, and what it printed.
  static func write<Sink: JSONSink>(_ call: HandlerCall, to sink: inout Sink) {
    sink.beginObject()
    sink.key("error")
    sink.bool(call.value == nil)
    sink.key("handler")
    sink.string(call.handler.rawValue)
    sink.key("item")
    sink.string(call.item)
    sink.key("printed")
    sink.strings(call.printed)
    sink.key("result")
    if let value = call.value { write(value, to: &sink) } else { sink.null() }
    sink.key("target")
    sink.string(call.target)
    sink.endObject()
  }

  /// What a handler returned, as a call's `result` in the JSON trace.
  package static func json(_ value: HandlerValue) -> JSONValue { JSONValueBuilder.build { write(value, to: &$0) } }

  static func write<Sink: JSONSink>(_ value: HandlerValue, to sink: inout Sink) {
    switch value {
    case .nothing: sink.null()
    case .boolean(let flag): sink.bool(flag)
    case .proposal(let proposal, nil): sink.string(proposal.rawValue)
    case .proposal(let proposal, let index?):
      sink.beginObject()
      sink.key("index")
      sink.integer(Int64(index))
      sink.key("operation")
      sink.string(proposal.rawValue)
      sink.endObject()
    case .springLoading(let proposal, let index):
      sink.beginObject()
      sink.key("index")
      sink.integer(index)
      sink.key("open")
      sink.bool(true)
      sink.key("operation")
      sink.string(proposal.rawValue)
      sink.endObject()
    case .operations(let allowed): write(allowed, to: &sink)
    case .preview(let preview): write(preview, to: &sink)
    case .text(let text): sink.string(text)
    // A value the host has no shape for is shown as the trace prints it.
    case .other(let text): sink.string(text)
    }
  }

  /// `{"badge": ..., "subtitle": ..., "title": ...}`, absent parts null.
  static func write<Sink: JSONSink>(_ preview: DragPreview, to sink: inout Sink) {
    sink.beginObject()
    sink.key("badge")
    sink.string(preview.badge)
    sink.key("subtitle")
    sink.string(preview.subtitle)
    sink.key("title")
    sink.string(preview.title)
    sink.endObject()
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

  static func write<Sink: JSONSink>(_ point: Point, to sink: inout Sink) {
    sink.beginArray()
    sink.coordinate(point.x)
    sink.coordinate(point.y)
    sink.endArray()
  }

  /// A diagnostic; `limit` (`instructions`, `memory`, `time`) only when the call spent one.
  package static func json(_ diagnostic: Diagnostic) -> JSONValue {
    var fields: [String: JSONValue] = [
      "message": .string(diagnostic.message),
      "file": optional(diagnostic.file),
      "line": diagnostic.line.map { .integer(Int64($0)) } ?? .null,
      "handler": diagnostic.handler.map { .string($0.rawValue) } ?? .null,
      "target": optional(diagnostic.target),
      "step": diagnostic.step.map { .integer(Int64($0)) } ?? .null,
      "traceback": .string(diagnostic.traceback),
    ]
    if let limit = diagnostic.limit { fields["limit"] = .string(limit.rawValue) }
    return .object(fields)
  }

  private static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

  private static func operations(_ operations: Set<DragOperation>) -> JSONValue {
    JSONValueBuilder.build { write(operations, to: &$0) }
  }

  private static func write<Sink: JSONSink>(_ operations: Set<DragOperation>, to sink: inout Sink) {
    sink.beginArray()
    for operation in DragOperation.allCases where operations.contains(operation) { sink.string(operation.rawValue) }
    sink.endArray()
  }
}

extension JSONSink {
  /// An array of `values`, each as `json` makes it; `[]` without making one when empty.
  /// Here, beside the descriptions that use it, so that it is specialized with them:
  /// generic across modules, it looked up the array's type metadata on every call.
  fileprivate mutating func array<Element>(_ values: [Element], _ json: (Element) -> JSONValue) {
    if values.isEmpty {
      beginArray()
      endArray()
    } else {
      value(.array(values.map(json)))
    }
  }
}
