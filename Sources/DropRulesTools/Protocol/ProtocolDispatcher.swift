import DropRules
import DropRulesModel
import Foundation

/// Turns one JSON-RPC 2.0 request text into one response text for a ``ProtocolSession``:
/// the host protocol (`droprules serve`) without its transport, so that stdio, an HTTP
/// handler or a test can carry it.
///
/// ```swift
/// let dispatcher = ProtocolDispatcher(session: try ProtocolSession())
/// dispatcher.respond(to: #"{"jsonrpc": "2.0", "id": 1, "method": "version"}"#)
/// // {"id":1,"jsonrpc":"2.0","result":{"methods":[...],"protocol":1,...}}
/// ```
///
/// A request that is not JSON, not a request, names no method or has the wrong params
/// is answered with an error, and the session is unchanged. Notifications (requests
/// without an id) run and get no answer. A batch (an array of requests) runs in order
/// and is answered with an array, as JSON-RPC 2.0 says.
public final class ProtocolDispatcher {
  /// The session the requests drive.
  public let session: ProtocolSession

  /// The longest request text answered; a longer one gets an invalid request error.
  public static let maximumRequestBytes = 16 * 1024 * 1024
  /// The most requests one batch may hold: a batch's answer is written whole, so this
  /// bounds what one request line can make the server hold.
  public static let maximumBatchSize = 1000
  /// The protocol's version, which `version` answers; it grows when a method changes
  /// in a way old clients would notice.
  public static let protocolVersion = 1

  /// The folders `load` may read rule files from, resolved; nil: anywhere (the client
  /// of `droprules serve` is the app that embeds it). The playground sets them: its
  /// client is a web page.
  let ruleRoots: [String]?

  /// A dispatcher that drives `session`; requests change it, one at a time.
  /// - Parameters:
  ///   - session: the protocol session the requests drive.
  ///   - ruleRoots: when set, `load` reads rule files only inside these folders.
  public init(session: ProtocolSession, ruleRoots: [String]? = nil) {
    self.session = session
    self.ruleRoots = ruleRoots?.compactMap(RealPath.of)
  }

  /// Answers one request text (a line without its newline): a response, an array of
  /// responses for a batch, or nil when there is nothing to answer (notifications, a
  /// blank line).
  public func respond(to request: Data) -> String? { answer(to: request)?.text }

  /// The answer to one request text and a newline, as UTF-8: a line of `droprules
  /// serve`'s output, written without a string in between; nil when there is none.
  package func answerLine(to request: Data) -> [UInt8]? {
    answer(to: request)?.lineBytes
  }

  private func answer(to request: Data) -> JSONTextWriter? {
    let blank = request.withUnsafeBytes { bytes in !bytes.contains(where: { !Self.isWhitespace($0) }) }
    guard !blank else { return nil }
    let answer = JSONTextWriter()
    guard request.count <= Self.maximumRequestBytes else {
      answer.value(Self.overlongRequestResponse(byteCount: request.count))
      return answer
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(request)
    } catch {
      answer.value(Self.response(id: .null, error: .parseError(error)))
      return answer
    }
    guard case .array(let batch) = json else {
      return respond(toOne: json, into: answer) ? answer : nil
    }
    guard !batch.isEmpty else {
      answer.value(Self.response(id: .null, error: .invalidRequest("an empty batch")))
      return answer
    }
    guard batch.count <= Self.maximumBatchSize else {
      let message = "a batch of \(batch.count) requests; a batch holds at most \(Self.maximumBatchSize)"
      answer.value(Self.response(id: .null, error: .invalidRequest(message)))
      return answer
    }
    answer.beginArray()
    var answered = false
    for request in batch where respond(toOne: request, into: answer) { answered = true }
    answer.endArray()
    return answered ? answer : nil
  }

  /// Answers one request text given as a string.
  public func respond(to request: String) -> String? { respond(to: Data(request.utf8)) }

  /// The answer to a request text longer than ``maximumRequestBytes``, for transports
  /// that stop reading it early.
  public static func responseToOverlongRequest(byteCount: Int) -> String {
    overlongRequestResponse(byteCount: byteCount).serialized()
  }

  /// ``responseToOverlongRequest(byteCount:)`` and a newline, as UTF-8: a line of
  /// `droprules serve`'s output.
  package static func overlongRequestLine(byteCount: Int) -> [UInt8] {
    let answer = JSONTextWriter()
    answer.value(overlongRequestResponse(byteCount: byteCount))
    return answer.lineBytes
  }

  private static func overlongRequestResponse(byteCount: Int) -> JSONValue {
    let error = RPCError(
      code: RPCError.invalidRequestCode,
      message:
        "invalid request: the request has \(byteCount) bytes; a request may hold at most \(maximumRequestBytes)",
      data: .object(["bytes": .integer(Int64(byteCount)), "maximumBytes": .integer(Int64(maximumRequestBytes))]))
    return response(id: .null, error: error)
  }

  /// Writes the response to one request of a line or a batch; false, writing nothing,
  /// for a notification.
  private func respond(toOne json: JSONValue, into answer: JSONTextWriter) -> Bool {
    let request: RPCRequest
    switch RPCRequest.read(json) {
    case .success(let read): request = read
    case .failure(let failure):
      answer.value(Self.response(id: failure.id, error: failure.error))
      return true
    }
    let outcome: Result<Answer, RPCError>
    if let method = Method(rawValue: request.method) {
      do throws(RPCError) {
        outcome = .success(try call(method, params: request.params))
      } catch {
        outcome = .failure(error)
      }
    } else {
      let suggestion = DidYouMean.suggestion(for: request.method, among: Method.allCases.map(\.rawValue))
      outcome = .failure(.methodNotFound(request.method, suggestion: suggestion))
    }
    guard let id = request.id else { return false }
    switch outcome {
    case .success(let result):
      answer.beginObject()
      answer.key("id")
      answer.value(id)
      answer.key("jsonrpc")
      answer.string("2.0")
      answer.key("result")
      result.write(into: answer)
      answer.endObject()
    case .failure(let error): answer.value(Self.response(id: id, error: error))
    }
    return true
  }

  static func response(id: JSONValue, error: RPCError) -> JSONValue {
    .object(["jsonrpc": .string("2.0"), "id": id, "error": error.json])
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}

@available(*, unavailable) extension ProtocolDispatcher: Sendable {}
