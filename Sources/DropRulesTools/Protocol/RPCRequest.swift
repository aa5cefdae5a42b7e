import DropRules
import DropRulesModel

/// One JSON-RPC 2.0 request, checked: `{"jsonrpc": "2.0", "method", "params"?, "id"?}`.
struct RPCRequest {
  /// The id to answer with; nil for a notification, which gets no answer.
  var id: JSONValue?
  var method: String
  /// The params object or array; nil when absent.
  var params: JSONValue?

  /// The members a request may have: the names `read` switches on, and the names an
  /// unknown member's hint is chosen from (change both together).
  static let members = ["jsonrpc", "id", "method", "params"]

  /// Reads a request, or says why it is not one, with the id to answer with (null when
  /// the id itself cannot be read).
  static func read(_ json: JSONValue) -> Result<RPCRequest, RequestFailure> {
    guard case .object(let fields) = json else {
      return .failure(RequestFailure(id: .null, error: .invalidRequest("expected an object, got \(json.kindName)")))
    }
    // One pass over the members: looking each up hashes its name, and every request
    // is read this way.
    var idValue: JSONValue?
    var version: JSONValue?
    var methodValue: JSONValue?
    var params: JSONValue?
    var unknown: String?
    for (key, value) in fields {
      switch key {
      case "id": idValue = value
      case "jsonrpc": version = value
      case "method": methodValue = value
      case "params": params = value
      default: if unknown.map({ key < $0 }) ?? true { unknown = key }
      }
    }
    var id: JSONValue?
    if let value = idValue {
      switch value {
      case .string, .integer, .null: id = value
      default:
        return .failure(
          RequestFailure(
            id: .null,
            error: .invalidRequest(
              "\"id\" must be a string, an integer of at most 64 bits or null, got \(describe(value))")
          ))
      }
    }
    // A malformed request is answered even without an id: it cannot be a notification.
    let answerID = id ?? .null
    func failure(_ message: String) -> Result<RPCRequest, RequestFailure> {
      .failure(RequestFailure(id: answerID, error: .invalidRequest(message)))
    }
    if let unknown {
      let hint = DidYouMean.suggestion(for: unknown, among: members).map { "; did you mean \($0)?" } ?? ""
      return failure("unknown member \"\(unknown.capped(.name))\"\(hint)")
    }
    guard case .string("2.0") = version else {
      return failure("\"jsonrpc\" must be \"2.0\", got \(version.map(describe) ?? "nothing")")
    }
    guard case .string(let method) = methodValue else {
      return failure("\"method\" must be a string, got \(methodValue.map(describe) ?? "nothing")")
    }
    if let params {
      switch params {
      case .object, .array: break
      default: return failure("\"params\" must be an object or an array, got \(params.kindName)")
      }
    }
    return .success(RPCRequest(id: id, method: method, params: params))
  }

  /// A short description of a value for a message: its kind, or the value when short.
  private static func describe(_ value: JSONValue) -> String {
    switch value {
    case .null, .bool, .integer, .number: value.serialized()
    case .string(let text) where text.utf8.count <= 40: value.serialized()
    default: value.kindName
    }
  }
}

/// A request that could not be read, and the id its error answer carries.
struct RequestFailure: Error {
  var id: JSONValue
  var error: RPCError
}
