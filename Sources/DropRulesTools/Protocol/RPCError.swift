import DropRules
import DropRulesModel

/// A JSON-RPC 2.0 error object: a code, a message for people and data for programs.
///
/// The codes are JSON-RPC's own, plus two in its range for server errors: -32000 for a
/// drag call at the wrong time or params of any method naming what is not on the board,
/// -32001 for rule files that did not load, whatever the reason. One code per kind of
/// fault, whichever method meets it.
public struct RPCError: Error, Equatable, Sendable {
  /// The JSON-RPC error code: one of the `...Code` constants below.
  public var code: Int
  /// What went wrong, for people: `invalid params: $.params.at[1]: expected a number, got a string`.
  public var message: String
  /// What went wrong, for programs: the JSON path, the drag error's kind, the problems.
  public var data: JSONValue?

  /// An error with a code, a message and optional data.
  public init(code: Int, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  /// The request line is not JSON.
  public static let parseErrorCode = -32700
  /// The JSON is not a request: not an object, wrong `jsonrpc`, a bad `id` or `method`.
  public static let invalidRequestCode = -32600
  /// The protocol has no such method; `data.suggestion` names a close one when there is.
  public static let methodNotFoundCode = -32601
  /// The params do not have the method's shape; `data.path` says where.
  public static let invalidParamsCode = -32602
  /// A drag call at the wrong time (no drag, a drag in progress) or naming a target or
  /// item that is not on the board.
  public static let dragErrorCode = -32000
  /// Rule files did not load; `data.problems` lists them as `file:line: message`.
  public static let ruleLoadErrorCode = -32001
  /// An answer that would pass the bound of an answer line (`data.maximumBytes`): the
  /// request ran and its answer is left out; or, later in the same batch
  /// (`data.notRun` true), a request that did not run.
  public static let answerTooLongCode = -32002

  /// The error as JSON-RPC writes it.
  public var json: JSONValue {
    var fields: [String: JSONValue] = ["code": .integer(Int64(code)), "message": .string(message)]
    if let data { fields["data"] = data }
    return .object(fields)
  }

  static func parseError(_ error: JSONParseError) -> RPCError {
    RPCError(
      code: parseErrorCode, message: "parse error: \(error.description)",
      data: .object([
        "line": .integer(Int64(error.line)), "column": .integer(Int64(error.column)),
        "message": .string(error.message),
      ]))
  }

  static func invalidRequest(_ message: String) -> RPCError {
    RPCError(code: invalidRequestCode, message: "invalid request: \(message)")
  }

  /// Invalid params at a JSON path such as `$.params.at[1]`.
  static func invalidParams(at path: String, _ message: String) -> RPCError {
    RPCError(
      code: invalidParamsCode, message: "invalid params: \(path): \(message)",
      data: .object(["path": .string(path), "message": .string(message)]))
  }

  /// Params that name a target or an item the board lacks: a drag error (-32000) of
  /// kind `unknownTarget` or `itemNotOnBoard`, as a drag call naming it answers, with
  /// the path of the name.
  static func notOnBoard(_ subject: ScenarioError.BoardSubject, at path: String, _ message: String) -> RPCError {
    let data: [String: JSONValue] =
      switch subject {
      case .target(let id): ["kind": .string("unknownTarget"), "target": .string(id.capped(.name))]
      case .item(let id): ["kind": .string("itemNotOnBoard"), "item": .string(id.capped(.name))]
      }
    return RPCError(
      code: dragErrorCode, message: "\(path): \(message)", data: .object(data.merging(["path": .string(path)]) { $1 }))
  }

  /// The request ran, but its answer would pass the answer line's bound.
  static func answerTooLong(method: String, maximumBytes: Int) -> RPCError {
    RPCError(
      code: answerTooLongCode,
      message:
        "answer too long: the answer to '\(method.capped(.name))' passed \(maximumBytes) bytes, the most an answer "
        + "line holds; the request ran, its answer is left out. Ask for less at a time "
        + "(board and describe take targets: [ids]; one such request a batch), "
        + "or start the server with a larger --max-answer-bytes",
      data: .object([
        "method": .string(method.capped(.name)), "maximumBytes": .integer(Int64(maximumBytes)), "notRun": .bool(false),
      ]))
  }

  /// A request of a batch after one whose answer reached the answer line's bound.
  static func notRun(maximumBytes: Int) -> RPCError {
    RPCError(
      code: answerTooLongCode,
      message:
        "not run: the answers before it in this batch reached \(maximumBytes) bytes, the most an answer line "
        + "holds; send it again in another batch",
      data: .object(["maximumBytes": .integer(Int64(maximumBytes)), "notRun": .bool(true)]))
  }

  static func methodNotFound(_ method: String, suggestion: String?) -> RPCError {
    // A client may send a name of megabytes: the message and `data.method` quote it cut
    // (TextCap), and say how long it was.
    let shown = TextCap.name.cuts(method) ? "\(method.capped(.name))' (\(method.utf8.count) bytes)" : "\(method)'"
    var message = "method not found: '\(shown)"
    var data: [String: JSONValue] = ["method": .string(method.capped(.name))]
    if let suggestion {
      message += "; did you mean \(suggestion)?"
      data["suggestion"] = .string(suggestion)
    }
    return RPCError(code: methodNotFoundCode, message: message, data: .object(data))
  }

  /// Rule files that did not load, each problem as `file:line: message`.
  static func ruleFilesNotLoaded(_ problems: [String]) -> RPCError {
    RPCError(
      code: ruleLoadErrorCode, message: "rules did not load: " + problems.joined(separator: "; "),
      data: .object(["problems": .array(problems.map(JSONValue.string))]))
  }

  static func session(_ error: ProtocolSessionError) -> RPCError {
    switch error {
    case .drag(let drag): RPCError(code: dragErrorCode, message: drag.description, data: dragData(drag))
    case .rules(let load): ruleFilesNotLoaded(load.problems.map(\.description))
    case .runtime(let lua): RPCError(code: ruleLoadErrorCode, message: "no rule runtime: \(lua.description)")
    }
  }

  /// What kind of drag error, and the id it names (cut as the message cuts it), for
  /// programs.
  private static func dragData(_ error: DragError) -> JSONValue {
    switch error {
    case .dragInProgress: .object(["kind": .string("dragInProgress")])
    case .noDrag: .object(["kind": .string("noDrag")])
    case .noItems: .object(["kind": .string("noItems")])
    case .itemNotOnBoard(let id): .object(["kind": .string("itemNotOnBoard"), "item": .string(id.capped(.name))])
    case .duplicateItem(let id): .object(["kind": .string("duplicateItem"), "item": .string(id.capped(.name))])
    case .unknownTarget(let id): .object(["kind": .string("unknownTarget"), "target": .string(id.capped(.name))])
    case .externalOpener(let id): .object(["kind": .string("externalOpener"), "item": .string(id.capped(.name))])
    }
  }
}
