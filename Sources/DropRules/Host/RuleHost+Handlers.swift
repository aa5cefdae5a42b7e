import Foundation

/// What a handler call gave back.
enum HandlerResult {
  /// The rule has no such handler.
  case notImplemented
  case returned(LuaValue)
  /// The handler raised; a diagnostic was recorded.
  case failed
}

/// Calling rule handlers and turning their failures into diagnostics.
extension RuleHost {
  /// Calls `handler` of the rule for `target` and records the call in the trace.
  @discardableResult
  func invoke(
    _ handler: Handler, on target: TargetID, operation: DropOperation? = nil, outcome: DropOutcome? = nil,
    index: Int? = nil
  ) -> HandlerResult {
    let board = currentBoard
    guard let dispatch = api.dispatch, let drop = board.target(target),
      let function = rules.rule(for: drop.type)?.handlers[handler]
    else { return .notImplemented }
    let pointer = drag?.pointer ?? drop.frame.center
    let arguments: [LuaValue] = [
      .function(function), .string(target), .integer(Int64(boardGeneration)),
      .number(pointer.x - drop.frame.x), .number(pointer.y - drop.frame.y), .number(pointer.x), .number(pointer.y),
      (index ?? pointerIndex(in: drop)).map { .integer(Int64($0)) } ?? .nil,
      operation.map { .string($0.rawValue) } ?? .nil,
      outcome.map { .string($0.rawValue) } ?? .nil,
    ]
    let started = handlerTimings == nil ? 0 : DispatchTime.now().uptimeNanoseconds
    let result: HandlerResult
    do {
      let values = try runtime.call(dispatch, arguments)
      result = .returned(values.first ?? .nil)
    } catch {
      report(error, handler: handler, target: target)
      result = .failed
    }
    if handlerTimings != nil { handlerTimings?.append(DispatchTime.now().uptimeNanoseconds - started) }
    let printed = runtime.takePrintedLines()
    updateLastStep { step in
      step.calls.append(HandlerCall(handler: handler, target: target, result: describe(result)))
      step.printed += printed
    }
    return result
  }

  /// Calls a function of the Lua API that is not rule code; a failure there is a bug
  /// in droprules, reported like a rule error so it is never silent.
  func callAPI(_ function: LuaReference?, _ arguments: [LuaValue]) {
    guard let function else { return }
    do { try runtime.call(function, arguments) } catch { report(error, handler: nil, target: nil) }
  }

  func report(_ error: LuaError, handler: Handler?, target: TargetID?) {
    var message = error.message
    switch error.kind {
    case .instructionLimit(let limit):
      message = "instruction budget of \(limit) exceeded (raise it with --max-instructions)"
    case .memoryLimit(let limit):
      message = "memory limit of \(limit) bytes exceeded (raise it with --max-memory)"
    default: break
    }
    report(
      Diagnostic(
        message: message, file: error.file, line: error.line, handler: handler, target: target,
        traceback: error.traceback),
      definedBy: nil)
  }

  /// Records a diagnostic on the current step; without a position of its own it points
  /// at the handler's definition.
  func report(_ diagnostic: Diagnostic, definedBy function: LuaReference?) {
    var diagnostic = diagnostic
    diagnostic.step = drag?.stepNumber
    if diagnostic.file == nil, let function, let definition = runtime.definition(of: function) {
      diagnostic.file = definition.file
      diagnostic.line = definition.line
    }
    diagnostics.append(diagnostic)
    updateLastStep { $0.diagnostics.append(diagnostic) }
  }

  func describe(_ result: HandlerResult) -> String {
    switch result {
    case .notImplemented: "not implemented"
    case .failed: "error"
    case .returned(let value): describe(value)
    }
  }

  func describe(_ value: LuaValue) -> String {
    switch value {
    case .nil: "nil"
    case .boolean(let flag): String(flag)
    case .integer(let number): String(number)
    case .number(let number): formatNumber(number)
    case .string(let text): text
    case .function: "a function"
    case .reference: "an object"
    case .table(let table):
      "{ " + table.fields.sorted { $0.key < $1.key }.map { "\($0.key) = \(describe($0.value))" }.joined(separator: ", ")
        + " }"
    }
  }
}
