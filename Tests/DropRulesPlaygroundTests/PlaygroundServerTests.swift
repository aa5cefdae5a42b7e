import DropRules
import DropRulesTools
import FlyingFox
import Foundation
import Testing

@testable import DropRulesPlayground

@Suite("playground server checks")
struct PlaygroundServerTests {
  func request(_ headers: [String: String], body: String = "") -> HTTPRequest {
    var fields = HTTPHeaders()
    for (name, value) in headers { fields[HTTPHeader(name)] = value }
    return HTTPRequest(
      method: .POST, version: .http11, path: "/rpc", query: [], headers: fields, body: HTTPBodySequence(data: Data()))
  }

  @Test("only a loopback Host is answered: a rebinding name is not")
  func hostCheck() {
    #expect(PlaygroundServer.isLocal(request(["Host": "127.0.0.1:8765"])))
    #expect(PlaygroundServer.isLocal(request(["Host": "localhost:8765"])))
    #expect(PlaygroundServer.isLocal(request(["Host": "LOCALHOST"])))
    #expect(!PlaygroundServer.isLocal(request(["Host": "evil.example:8765"])))
    #expect(!PlaygroundServer.isLocal(request(["Host": "127.0.0.1.evil.example"])))
    #expect(!PlaygroundServer.isLocal(request([:])))
  }

  @Test("an Origin must be the server's own")
  func originCheck() {
    #expect(PlaygroundServer.isFromOwnPage(request(["Host": "127.0.0.1:8765"])))
    #expect(PlaygroundServer.isFromOwnPage(request(["Host": "127.0.0.1:8765", "Origin": "http://127.0.0.1:8765"])))
    #expect(!PlaygroundServer.isFromOwnPage(request(["Host": "127.0.0.1:8765", "Origin": "http://evil.example"])))
    #expect(!PlaygroundServer.isFromOwnPage(request(["Host": "127.0.0.1:8765", "Origin": "null"])))
  }

  @Test("the method and id of a single request are read; anything else gives none")
  func peek() {
    let move = PlaygroundServer.peek(Data(#"{"jsonrpc": "2.0", "id": 7, "method": "move"}"#.utf8))
    #expect(move.method == "move" && move.id == .integer(7))
    #expect(PlaygroundServer.peek(Data(#"[{"method": "move", "id": 1}]"#.utf8)).method == nil)
    #expect(PlaygroundServer.peek(Data("not json".utf8)).method == nil)
    #expect(PlaygroundServer.peek(Data(#"{"method": 3}"#.utf8)).method == nil)
  }

  @Test("a body over the maximum, chunked or not, is counted and dropped, not held; one at the maximum is kept")
  func boundedBody() async throws {
    let allowance = RequestBodyAllowance(capacity: 1 << 20)
    let over = HTTPBodySequence(data: Data(repeating: 0x20, count: 1000), suggestedBufferSize: 64)
    #expect(
      try await PlaygroundServer.readBody(over, maximumLength: 999, allowance: allowance) == .tooLong(byteCount: 1000))
    #expect(allowance.bytesHeld == 0)
    let exact = HTTPBodySequence(data: Data(repeating: 0x20, count: 1000), suggestedBufferSize: 64)
    #expect(
      try await PlaygroundServer.readBody(exact, maximumLength: 1000, allowance: allowance)
        == .complete(Data(repeating: 0x20, count: 1000)))
    #expect(allowance.bytesHeld == 1000)
    #expect(
      try await PlaygroundServer.readBody(HTTPBodySequence(), maximumLength: 10, allowance: allowance)
        == .complete(Data()))
  }

  @Test("bodies in flight on all connections together stay within one allowance; a body past it is dropped as busy")
  func bodiesShareOneAllowance() async throws {
    let allowance = RequestBodyAllowance(capacity: 2500)
    func body() -> HTTPBodySequence {
      HTTPBodySequence(data: Data(repeating: 0x20, count: 1000), suggestedBufferSize: 64)
    }
    // Two bodies held (not yet answered) and a third arriving: it cannot be kept too.
    for _ in 0..<2 {
      #expect(
        try await PlaygroundServer.readBody(body(), maximumLength: 1000, allowance: allowance)
          == .complete(Data(repeating: 0x20, count: 1000)))
    }
    #expect(
      try await PlaygroundServer.readBody(body(), maximumLength: 1000, allowance: allowance) == .busy(byteCount: 1000))
    #expect(allowance.bytesHeld == 2000)
    // Once one is answered its bytes come back, and the next body fits.
    allowance.giveBack(1000)
    #expect(
      try await PlaygroundServer.readBody(body(), maximumLength: 1000, allowance: allowance)
        == .complete(Data(repeating: 0x20, count: 1000)))
  }

  @Test(
    "the server answers a request that finds the allowance spent with 503, and gives back what each answered one took")
  func busyServerAnswers503() async throws {
    let host = try RuleHost()
    let session = ProtocolSession(host: host, declaredTypes: [], limits: LuaLimits())
    let dispatcher = PlaygroundDispatcher(dispatcher: ProtocolDispatcher(session: session))
    let bodies = RequestBodyAllowance(capacity: 100)
    func request(_ text: String) -> HTTPRequest {
      HTTPRequest(
        method: .POST, version: .http11, path: "/rpc", query: [],
        headers: [.host: "127.0.0.1:8080", .contentType: "application/json"],
        body: HTTPBodySequence(data: Data(text.utf8)))
    }
    let small = #"{"jsonrpc": "2.0", "id": 1, "method": "board"}"#
    let answered = try await PlaygroundServer.answer(request(small), dispatcher: dispatcher, bodies: bodies)
    #expect(answered.statusCode == .ok)
    #expect(bodies.bytesHeld == 0)
    #expect(bodies.take(90))
    let busy = try await PlaygroundServer.answer(request(small), dispatcher: dispatcher, bodies: bodies)
    #expect(busy.statusCode == .serviceUnavailable)
    #expect(bodies.bytesHeld == 90)
  }

  @Test("a reload note is one line of ASCII that decodes back to the JSON")
  func percentEncoding() {
    let json = #"{"error": {"message": "a.lua:1: unexpected \"\n\" — é </script>"}}"#
    let encoded = PlaygroundServer.percentEncoded(json)
    #expect(encoded.allSatisfy { $0.isASCII && !$0.isNewline && $0 != " " })
    #expect(encoded.removingPercentEncoding == json)
  }

  @Test("a skipped move is an error answer with the request's id that says so")
  func skippedAnswer() throws {
    let answer = try JSONValue.parse(PlaygroundDispatcher.skipped(id: .string("m1")))
    #expect(answer.objectValue?["id"] == .string("m1"))
    let error = try #require(answer.objectValue?["error"]?.objectValue)
    #expect(error["code"] == .integer(-32000))
    #expect(error["data"] == .object(["skipped": .bool(true)]))
  }
}
