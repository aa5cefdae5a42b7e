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
///
/// Every answer is written into one bounded writer, measured as it is written: an answer
/// line holds at most ``maximumAnswerBytes`` of answers. The answer that would pass it
/// becomes an error (-32002, ``RPCError/answerTooLongCode``) and the requests after it in
/// its batch do not run (each is answered with the same code), so no method, present or
/// future, can make the server hold more than the bound for one line.
public final class ProtocolDispatcher {
  /// The session the requests drive.
  public let session: ProtocolSession

  /// The longest request text answered; a longer one gets an invalid request error.
  public static let maximumRequestBytes = 16 * 1024 * 1024
  /// The most requests one batch may hold: a batch's answer is written whole, so this
  /// bounds what one request line can make the server hold.
  public static let maximumBatchSize = 1000
  /// The most bytes of answers one answer line holds by default: the `board` or
  /// `describe` answer of a board holding its whole data cap (64 MiB) and a scenario of
  /// the default size (16 MiB) fits with room to spare, and eight request lines' worth.
  public static let defaultMaximumAnswerBytes = 128 * 1024 * 1024
  /// The protocol's version, which `version` answers; it grows when a method changes
  /// in a way old clients would notice.
  public static let protocolVersion = 1

  /// The folders `load` may read rule files from, resolved; nil: anywhere (the client
  /// of `droprules serve` is the app that embeds it). The playground sets them: its
  /// client is a web page.
  let ruleRoots: [String]?

  /// The most bytes of answers one answer line holds (the errors that replace the answers
  /// past it come on top: each its request's id and about 300 bytes).
  public let maximumAnswerBytes: Int

  /// A dispatcher that drives `session`; requests change it, one at a time.
  /// - Parameters:
  ///   - session: the protocol session the requests drive.
  ///   - ruleRoots: when set, `load` reads rule files only inside these folders.
  ///   - maximumAnswerBytes: the most bytes of answers one answer line holds; past it an
  ///     answer is an error, and the rest of its batch does not run.
  public init(
    session: ProtocolSession, ruleRoots: [String]? = nil, maximumAnswerBytes: Int = defaultMaximumAnswerBytes
  ) {
    self.session = session
    self.ruleRoots = ruleRoots?.compactMap(RealPath.of)
    self.maximumAnswerBytes = max(maximumAnswerBytes, 1)
  }

  /// Answers one request text (a line without its newline): a response, an array of
  /// responses for a batch, or nil when there is nothing to answer (notifications, a
  /// blank line).
  public func respond(to request: Data) -> String? { answer(to: request)?.text }

  /// The answer to one request text, written into a bounded writer whose
  /// ``JSONTextWriter/withLineBytes(_:)`` lends it as a line of `droprules serve`'s
  /// output, without a copy; nil when there is none.
  package func answerLine(to request: Data) -> JSONTextWriter? { answer(to: request) }

  private func answer(to request: Data) -> JSONTextWriter? {
    let blank = request.withUnsafeBytes { bytes in !bytes.contains(where: { !Self.isWhitespace($0) }) }
    guard !blank else { return nil }
    let answer = JSONTextWriter(byteLimit: maximumAnswerBytes)
    var limitReached = false
    guard request.count <= Self.maximumRequestBytes else {
      Self.writeWhole(Self.overlongRequestResponse(byteCount: request.count), into: answer, limitReached: &limitReached)
      return answer
    }
    let json: JSONValue
    do {
      json = try JSONValue.parse(request)
    } catch {
      Self.writeWhole(Self.response(id: .null, error: .parseError(error)), into: answer, limitReached: &limitReached)
      return answer
    }
    guard case .array(let batch) = json else {
      return respond(toOne: json, into: answer, limitReached: &limitReached) ? answer : nil
    }
    guard !batch.isEmpty else {
      let response = Self.response(id: .null, error: .invalidRequest("an empty batch"))
      Self.writeWhole(response, into: answer, limitReached: &limitReached)
      return answer
    }
    guard batch.count <= Self.maximumBatchSize else {
      let message = "a batch of \(batch.count) requests; a batch holds at most \(Self.maximumBatchSize)"
      Self.writeWhole(
        Self.response(id: .null, error: .invalidRequest(message)), into: answer, limitReached: &limitReached)
      return answer
    }
    answer.beginArray()
    var answered = false
    for request in batch where respond(toOne: request, into: answer, limitReached: &limitReached) { answered = true }
    // The closing bracket frames the answers and is not one: it is always written.
    answer.liftLimit()
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
  package static func overlongRequestLine(byteCount: Int) -> JSONTextWriter {
    let answer = JSONTextWriter()
    answer.value(overlongRequestResponse(byteCount: byteCount))
    return answer
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
  ///
  /// The one place an answer is measured: when it passes the writer's limit, it is
  /// taken back and replaced by an error, `limitReached` is set, and every later request
  /// of the batch is answered with an error without running (a notification, silently).
  private func respond(toOne json: JSONValue, into answer: JSONTextWriter, limitReached: inout Bool) -> Bool {
    let request: RPCRequest
    switch RPCRequest.read(json) {
    case .success(let read): request = read
    case .failure(let failure):
      Self.writeWhole(Self.response(id: failure.id, error: failure.error), into: answer, limitReached: &limitReached)
      return true
    }
    if limitReached {
      guard let id = request.id else { return false }
      let response = Self.response(id: id, error: .notRun(maximumBytes: maximumAnswerBytes))
      Self.writeWhole(response, into: answer, limitReached: &limitReached)
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
    let start = answer.mark
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
    if answer.isFull {
      // Taken back whole: a cut answer is not JSON. The error that replaces it is written
      // past the limit, which stays spent for the rest of the batch.
      answer.rewind(to: start)
      let response = Self.response(
        id: id, error: .answerTooLong(method: request.method, maximumBytes: maximumAnswerBytes))
      Self.writeWhole(response, into: answer, limitReached: &limitReached)
      limitReached = true
    }
    return true
  }

  /// Writes an error answer whole, past the writer's limit if need be (which then counts
  /// as reached): it is small and fixed but for the id the request brought, which the
  /// request's own bound (``maximumRequestBytes``) bounds.
  private static func writeWhole(_ response: JSONValue, into answer: JSONTextWriter, limitReached: inout Bool) {
    let start = answer.mark
    answer.value(response)
    guard answer.isFull else { return }
    answer.rewind(to: start, byteLimit: .max)
    answer.value(response)
    limitReached = true
  }

  static func response(id: JSONValue, error: RPCError) -> JSONValue {
    .object(["jsonrpc": .string("2.0"), "id": id, "error": error.json])
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}

@available(*, unavailable) extension ProtocolDispatcher: Sendable {}
