import DropRules
import DropRulesModel
import DropRulesTools
import DropRulesWeb
import FlyingFox
import Foundation

/// The playground's web server: the page at `/`, the host protocol at `POST /rpc`, on
/// 127.0.0.1 only.
///
/// Only this machine can connect, but any web page open in its browser could try to
/// send requests, so a request must name this server as its `Host` (no DNS rebinding),
/// carry JSON (a cross-site form cannot), and come from this server's own page when it
/// names an `Origin`.
package struct PlaygroundServer: Sendable {
  package let dispatcher: PlaygroundDispatcher
  package let page: String
  package let port: UInt16
  /// What the bodies of all requests in flight may hold together: two requests of the
  /// largest size.
  package let bodies = RequestBodyAllowance(capacity: 2 * ProtocolDispatcher.maximumRequestBytes)

  package init(dispatcher: PlaygroundDispatcher, page: String, port: UInt16) {
    self.dispatcher = dispatcher
    self.page = page
    self.port = port
  }

  /// How a request's body was read.
  package enum BodyRead: Equatable, Sendable {
    /// The whole body, whose bytes are taken from the allowance until given back.
    case complete(Data)
    /// A body longer than one request may be, counted and dropped.
    case tooLong(byteCount: Int)
    /// A body that found the allowance spent by other requests, counted and dropped.
    case busy(byteCount: Int)
  }

  /// Serves until the task is cancelled; `listening` gets the port once it is open
  /// (the one the system chose when `port` is 0).
  package func run(listening: @escaping @Sendable (UInt16) -> Void) async throws {
    let server = HTTPServer(
      config: HTTPServer.Configuration(
        address: try .inet(ip4: "127.0.0.1", port: port), timeout: 60,
        pool: NoDelaySocketPool(pool: HTTPServer.defaultPool()), logger: .disabled))
    let page = page
    let dispatcher = dispatcher
    let bodies = bodies
    await server.appendRoute("GET /") { request in
      guard Self.isLocal(request) else { return Self.refused("this server answers only as 127.0.0.1 or localhost") }
      return HTTPResponse(
        statusCode: .ok,
        headers: [
          .contentType: "text/html; charset=utf-8", HTTPHeader("Cache-Control"): "no-store",
          HTTPHeader("Content-Security-Policy"): PlaygroundPage.contentSecurityPolicy,
        ],
        body: Data(page.utf8))
    }
    await server.appendRoute("POST /rpc") { request in
      try await Self.answer(request, dispatcher: dispatcher, bodies: bodies)
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.run() }
      group.addTask {
        try await server.waitUntilListening(timeout: 10)
        if case .ip4(_, let port) = await server.listeningAddress { listening(port) }
      }
      // Serving ends when the server fails (a port in use fails at once) or is cancelled.
      while try await group.next() != nil {}
    }
  }

  static func answer(
    _ request: HTTPRequest, dispatcher: PlaygroundDispatcher, bodies: RequestBodyAllowance
  ) async throws -> HTTPResponse {
    guard isLocal(request) else { return refused("this server answers only as 127.0.0.1 or localhost") }
    guard isFromOwnPage(request) else { return refused("requests come only from the playground's own page") }
    guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
      return HTTPResponse(statusCode: .unsupportedMediaType, body: Data("send JSON-RPC as application/json\n".utf8))
    }
    if let length = request.headers[.contentLength].flatMap(Int.init), length > ProtocolDispatcher.maximumRequestBytes {
      return json(ProtocolDispatcher.responseToOverlongRequest(byteCount: length))
    }
    let body: Data
    let read = try await Self.readBody(
      request.bodySequence, maximumLength: ProtocolDispatcher.maximumRequestBytes, allowance: bodies)
    switch read {
    case .complete(let whole): body = whole
    case .tooLong(let byteCount): return json(ProtocolDispatcher.responseToOverlongRequest(byteCount: byteCount))
    case .busy(let byteCount):
      return HTTPResponse(
        statusCode: .serviceUnavailable, headers: [HTTPHeader("Retry-After"): "1"],
        body: Data(
          ("the playground already holds \(bodies.capacity) bytes of requests in flight; "
            + "this one (\(byteCount) bytes) was dropped, send it again once they are answered\n").utf8))
    }
    defer { bodies.giveBack(body.count) }
    let (method, id) = Self.peek(body)
    let ticket = method == "move" ? dispatcher.takeMoveTicket() : nil
    let answer = await dispatcher.respond(to: body, method: method, id: id, moveTicket: ticket)
    var response = json(answer.response ?? "")
    if let reload = answer.reload {
      // A header carries no newline and only ASCII: the JSON is percent-encoded.
      response.headers[HTTPHeader("X-Droprules-Reload")] = Self.percentEncoded(reload)
    }
    return response
  }

  /// Reads a body of at most `maximumLength` bytes, taking its bytes from `allowance` as
  /// they arrive; a longer body, or one the allowance has no room for, is counted and
  /// dropped as it arrives. A chunked body has no Content-Length to refuse up front, and
  /// reading it whole let one request make the server hold any number of bytes.
  ///
  /// - Returns: the body, whose bytes the caller gives back once it answered; or why
  ///   it was dropped, having given back what it took.
  static func readBody(
    _ body: HTTPBodySequence, maximumLength: Int, allowance: RequestBodyAllowance
  ) async throws -> BodyRead {
    var kept = Data()
    var byteCount = 0
    var busy = false
    do {
      for try await piece in body {
        byteCount += piece.count
        guard byteCount <= maximumLength, !busy else {
          allowance.giveBack(kept.count)
          kept = Data()
          continue
        }
        if allowance.take(piece.count) {
          kept.append(piece)
        } else {
          busy = true
          allowance.giveBack(kept.count)
          kept = Data()
        }
      }
    } catch {
      allowance.giveBack(kept.count)
      throw error
    }
    if byteCount > maximumLength { return .tooLong(byteCount: byteCount) }
    return busy ? .busy(byteCount: byteCount) : .complete(kept)
  }

  /// The method and id of a single request, for the ticket and the skipped answer; a
  /// batch or broken text gives nil (the dispatcher answers it as it should).
  static func peek(_ body: Data) -> (method: String?, id: DropRules.JSONValue) {
    guard let fields = (try? DropRules.JSONValue.parse(body))?.objectValue else { return (nil, .null) }
    return (fields["method"]?.stringValue, fields["id"] ?? .null)
  }

  static func isLocal(_ request: HTTPRequest) -> Bool {
    guard let host = request.headers[.host]?.lowercased() else { return false }
    let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
    return name == "127.0.0.1" || name == "localhost"
  }

  static func isFromOwnPage(_ request: HTTPRequest) -> Bool {
    guard let origin = request.headers[HTTPHeader("Origin")]?.lowercased() else { return true }
    guard let host = request.headers[.host]?.lowercased() else { return false }
    return origin == "http://" + host
  }

  static func json(_ text: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: .ok,
      headers: [.contentType: "application/json; charset=utf-8", HTTPHeader("Cache-Control"): "no-store"],
      body: Data(text.utf8))
  }

  static func refused(_ reason: String) -> HTTPResponse {
    HTTPResponse(statusCode: .forbidden, body: Data((reason + "\n").utf8))
  }

  static func percentEncoded(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-_.~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }
}
