import DropRules
/// The JSON form of a replay: every field is data a tool can read without parsing text.
/// `droprules run --format json` prints it, and the host protocol's `trace` method
/// answers with its step list.
import DropRulesModel

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
    var report: [String: JSONValue] = [
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
    ]
    // Only when some were left out: reports of drags within the cap read as before.
    if result.diagnosticsDropped > 0 { report["errorsOmitted"] = .integer(Int64(result.diagnosticsDropped)) }
    return .object(report)
  }

  /// A drag's steps as the JSON trace shows them.
  public static func json(_ steps: [TraceStep]) -> JSONValue { .array(steps.map { json($0) }) }

  /// One step as the JSON trace shows it (an element of `steps`; a test's `drag.lastStep`).
  public static func json(step: TraceStep) -> JSONValue { json(step) }

  static func json(_ step: TraceStep) -> JSONValue { StepJSON.json(step) }

  /// What a handler returned, as a call's `result` in the JSON trace.
  public static func json(_ value: HandlerValue) -> JSONValue { StepJSON.json(value) }

  static func json(_ reason: OutcomeReason) -> JSONValue { StepJSON.json(reason) }

  static func json(_ diagnostic: Diagnostic) -> JSONValue { StepJSON.json(diagnostic) }
}
