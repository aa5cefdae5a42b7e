import DropRules
import DropRulesTestSupport
import DropRulesTools
import Foundation
import Testing

@testable import DropRulesPlayground

@Suite("playground dispatcher")
struct PlaygroundDispatcherTests {
  let directory: TemporaryDirectory
  var folder: URL { directory.url }
  let rules: String

  init() throws {
    directory = try TemporaryDirectory()
    rules = directory.url.appendingPathComponent("box.lua").path
    try Self.rule(returning: "move").write(toFile: rules, atomically: true, encoding: .utf8)
  }

  static func rule(returning proposal: String) -> String {
    #"return { ["box"] = { dropUpdated = function() return "\#(proposal)" end, performDrop = function() return true end } }"#
  }

  func makePlayground(maximumAnswerBytes: Int = ProtocolDispatcher.defaultMaximumAnswerBytes) throws
    -> PlaygroundDispatcher
  {
    let host = try RuleHost(limits: LuaLimits(maxTime: .seconds(60)))
    let item = DragItem(id: "thing", representations: [Representation(type: "public.plain-text", payload: "x")])
    let targets = [
      DropTarget(id: "a", type: "box", frame: Rect(x: 0, y: 0, width: 100, height: 100), items: ["thing"]),
      DropTarget(id: "b", type: "box", frame: Rect(x: 100, y: 0, width: 100, height: 100)),
    ]
    try host.replaceBoard(Board(targets: targets, items: [item]))
    try host.loadRules(atPaths: [rules])
    let protocolSession = ProtocolSession(host: host, declaredTypes: [], limits: LuaLimits(maxTime: .seconds(60)))
    return PlaygroundDispatcher(
      dispatcher: ProtocolDispatcher(session: protocolSession, maximumAnswerBytes: maximumAnswerBytes))
  }

  @Test("the playground answers through the same bounded writer: an answer past the bound is an error")
  func answerBound() async throws {
    let playground = try makePlayground(maximumAnswerBytes: 1024)
    _ = try await call(
      playground, "setBoard",
      #"{"targets": [{"id": "a", "type": "box", "frame": [0, 0, 9, 9], "data": {"blob": "\#(String(repeating: "z", count: 5000))"}}]}"#
    )
    let (answer, _) = try await call(playground, "board")
    #expect(answer["error"]?.objectValue?["code"] == .integer(-32002))
    #expect(answer["error"]?.objectValue?["data"]?.objectValue?["maximumBytes"] == .integer(1024))
  }

  func call(_ playground: PlaygroundDispatcher, _ method: String, _ params: String = "{}", ticket: Int? = nil)
    async throws
    -> (answer: [String: JSONValue], reload: String?)
  {
    let body = Data(#"{"jsonrpc": "2.0", "id": 1, "method": "\#(method)", "params": \#(params)}"#.utf8)
    let answer = await playground.respond(to: body, method: method, id: .integer(1), moveTicket: ticket)
    let response = try #require(answer.response)
    let parsed = try #require(try JSONValue.parse(response).objectValue)
    return (parsed, answer.reload)
  }

  @Test("a move whose ticket is older than the newest is answered as skipped and calls no rule")
  func staleMoveSkipped() async throws {
    let playground = try makePlayground()
    _ = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    let older = playground.takeMoveTicket()
    let newer = playground.takeMoveTicket()
    let skipped = try await call(playground, "move", #"{"at": [150, 50]}"#, ticket: older)
    #expect(skipped.answer["error"]?.objectValue?["data"] == .object(["skipped": .bool(true)]))
    let ran = try await call(playground, "move", #"{"at": [150, 50]}"#, ticket: newer)
    #expect(ran.answer["result"]?.objectValue?["proposal"] == .string("move"))
    let trace = try await call(playground, "trace", "[]")
    #expect(trace.answer["result"]?.arrayValue?.count == 1)
  }

  @Test("a rule file saved between drags is loaded before the next one, and only then")
  func reloadBeforeDrag() async throws {
    let playground = try makePlayground()
    let first = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    #expect(first.reload == nil)
    try Self.rule(returning: "forbidden").write(toFile: rules, atomically: true, encoding: .utf8)
    // A save during a drag waits for the next drag.
    let during = try await call(playground, "move", #"{"at": [150, 50]}"#, ticket: playground.takeMoveTicket())
    #expect(during.answer["result"]?.objectValue?["proposal"] == .string("move"))
    _ = try await call(playground, "cancel")
    let second = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    let reloadText = try #require(second.reload)
    let reload = try JSONValue.parse(reloadText)
    #expect(reload.objectValue?["result"]?.objectValue?["files"] == .array([.string(rules)]))
    let moved = try await call(playground, "move", #"{"at": [150, 50]}"#, ticket: playground.takeMoveTicket())
    #expect(moved.answer["result"]?.objectValue?["proposal"] == .string("forbidden"))
    _ = try await call(playground, "cancel")
    let third = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    #expect(third.reload == nil)
  }

  @Test("a saved file that does not load keeps the rules that did, and says why")
  func brokenSave() async throws {
    let playground = try makePlayground()
    try "return {".write(toFile: rules, atomically: true, encoding: .utf8)
    let begin = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    let reloadText = try #require(begin.reload)
    let reload = try JSONValue.parse(reloadText)
    #expect(reload.objectValue?["error"] != nil)
    let moved = try await call(playground, "move", #"{"at": [150, 50]}"#, ticket: playground.takeMoveTicket())
    #expect(moved.answer["result"]?.objectValue?["proposal"] == .string("move"))
  }

  @Test("reset cancels a drag in progress and puts back the board the playground started with")
  func reset() async throws {
    let playground = try makePlayground()
    _ = try await call(playground, "setBoard", #"{"targets": [{"id": "c", "type": "box", "frame": [0, 0, 9, 9]}]}"#)
    let changed = try await call(playground, "board")
    #expect(changed.answer["result"]?.objectValue?["targets"] == .object(["c": .array([])]))
    let idle = try await call(playground, PlaygroundDispatcher.resetMethod)
    #expect(idle.answer["result"] == .object(["targets": .integer(2), "cancelled": .bool(false)]))
    let back = try await call(playground, "board")
    #expect(back.answer["result"]?.objectValue?["targets"]?.objectValue?["a"] == .array([.string("thing")]))
    _ = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    let during = try await call(playground, PlaygroundDispatcher.resetMethod)
    #expect(during.answer["result"]?.objectValue?["cancelled"] == .bool(true))
    let trace = try await call(playground, "trace", "[]")
    #expect(trace.answer["result"]?.arrayValue?.last?.objectValue?["outcome"] == .string("cancelled"))
    let again = try await call(playground, "beginDrag", #"{"items": ["thing"]}"#)
    #expect(again.answer["result"] != nil)
  }
}
