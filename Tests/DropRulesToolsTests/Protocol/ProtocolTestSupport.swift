import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

/// A client of a ``ProtocolDispatcher`` in the same process: it numbers its requests and
/// reads the answers back as JSON values, so tests compare whole responses.
final class ProtocolClient {
  let dispatcher: ProtocolDispatcher
  private var nextID = 0

  init(
    session: ProtocolSession, ruleRoots: [String]? = nil,
    maximumAnswerBytes: Int = ProtocolDispatcher.defaultMaximumAnswerBytes
  ) {
    dispatcher = ProtocolDispatcher(session: session, ruleRoots: ruleRoots, maximumAnswerBytes: maximumAnswerBytes)
  }

  /// A session with `rules` loaded from `directory` and the two-box board.
  convenience init(
    rules: String, directory: TemporaryDirectory, limits: LuaLimits = LuaLimits(),
    maximumAnswerBytes: Int = ProtocolDispatcher.defaultMaximumAnswerBytes
  ) throws {
    let session = try ProtocolSession(limits: limits)
    try session.loadRules([try directory.write("rules.lua", rules)])
    try session.setBoard(try Board(targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")]))
    self.init(session: session, maximumAnswerBytes: maximumAnswerBytes)
  }

  /// Sends a request with the next id and returns the whole response.
  func send(_ method: String, _ params: String? = nil) throws -> JSONValue {
    nextID += 1
    let text =
      #"{"jsonrpc": "2.0", "id": \#(nextID), "method": "\#(method)""# + (params.map { #", "params": \#($0)"# } ?? "")
      + "}"
    return try #require(try raw(text))
  }

  /// The result of a request that must succeed.
  func result(_ method: String, _ params: String? = nil) throws -> JSONValue {
    let response = try send(method, params)
    guard let result = response.objectValue?["result"] else { throw UnexpectedResponse(response: response) }
    return result
  }

  /// The error of a request that must fail, without the id and jsonrpc members.
  func error(_ method: String, _ params: String? = nil) throws -> JSONValue {
    let response = try send(method, params)
    guard let error = response.objectValue?["error"] else { throw UnexpectedResponse(response: response) }
    return error
  }

  /// Sends text as it is; nil when the dispatcher answers nothing.
  func raw(_ text: String) throws -> JSONValue? {
    try dispatcher.respond(to: text).map { try JSONValue.parse($0) }
  }

  /// Sends bytes as they are.
  func raw(_ bytes: Data) throws -> JSONValue? {
    try dispatcher.respond(to: bytes).map { try JSONValue.parse($0) }
  }

  /// The id the last request carried.
  var lastID: JSONValue { .integer(Int64(nextID)) }
}

struct UnexpectedResponse: Error, CustomStringConvertible {
  var response: JSONValue
  var description: String { "unexpected response: \(response.serialized())" }
}

/// JSON text as a value, for comparing whole responses.
func json(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }
