import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesModel
@testable import DropRulesTools

/// An answer line holds at most `maximumAnswerBytes` of answers, measured as they are
/// written: 40 MiB of board data and a batch of 30 `board` requests made one line of
/// 1,200 MiB (2.47 GB resident). CI-sized here: a few MiB of data under a bound of a few
/// MiB; `Tests/Slow/host-work.sh` runs the full size.
@Suite("host protocol: the answer line's bound")
struct AnswerBoundTests {
  /// A drop stores three strings of 1 MiB on its target: data the rule made.
  static let rules = """
    return { box = {
      dropUpdated = function() return "move" end,
      performDrop = function(info, target)
        for i = 1, 3 do target:set("blob" .. i, string.rep("x", 1 << 20)) end
        return true
      end,
    } }
    """
  static let bound = 8 << 20

  /// A client whose board holds 3 MiB of the rule's data, under a bound of 8 MiB.
  func filledClient(_ directory: TemporaryDirectory, bound: Int = bound) throws -> ProtocolClient {
    let client = try ProtocolClient(rules: Self.rules, directory: directory, maximumAnswerBytes: bound)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    _ = try client.result("move", #"{"over": "b"}"#)
    #expect(try client.result("drop").objectValue?["outcome"] == .string("performed"))
    return client
  }

  static func batch(_ count: Int, _ method: String = "board") -> String {
    "[" + (1...count).map { #"{"jsonrpc": "2.0", "id": \#($0), "method": "\#(method)"}"# }.joined(separator: ",") + "]"
  }

  @Test("a batch of 30 board requests over 3 MiB of data: two answers, then an error, then 27 not run")
  func batchOfBoards() throws {
    let directory = try TemporaryDirectory()
    let client = try filledClient(directory)
    let text = try #require(client.dispatcher.respond(to: Self.batch(30)))
    #expect(text.utf8.count < Self.bound + 30 * 400, "\(text.utf8.count) bytes")
    let answers = try #require(try JSONValue.parse(text).arrayValue)
    #expect(answers.map { $0.objectValue?["id"] } == (1...30).map { .integer(Int64($0)) })
    #expect(answers.prefix(2).allSatisfy { $0.objectValue?["result"] != nil })
    let crossing = try #require(answers[2].objectValue?["error"])
    #expect(
      crossing.objectValue?["data"]
        == (try json(#"{"maximumBytes": 8388608, "method": "board", "notRun": false}"#)))
    #expect(crossing.objectValue?["code"] == .integer(-32002))
    let message = try #require(crossing.objectValue?["message"]?.stringValue)
    #expect(message.contains("8388608 bytes") && message.contains("--max-answer-bytes"))
    for answer in answers.dropFirst(3) {
      #expect(answer.objectValue?["error"]?.objectValue?["data"]?.objectValue?["notRun"] == .bool(true))
    }
  }

  @Test("one answer over the bound is an error naming it, and the next request is answered again")
  func singleAnswer() throws {
    let directory = try TemporaryDirectory()
    let client = try filledClient(directory, bound: 1 << 20)
    let error = try client.error("board")
    #expect(error.objectValue?["code"] == .integer(-32002))
    #expect(error.objectValue?["data"]?.objectValue?["maximumBytes"] == .integer(1 << 20))
    #expect(try client.result("version").objectValue?["maximumAnswerBytes"] == .integer(1 << 20))
    #expect(try client.error("describe").objectValue?["code"] == .integer(-32002))
  }

  @Test("a board too large for one answer is read a target at a time (targets: [ids])")
  func narrowerRequests() throws {
    let directory = try TemporaryDirectory()
    let client = try filledClient(directory, bound: 1 << 20)
    #expect(try client.error("board").objectValue?["message"]?.stringValue?.contains("targets: [ids]") == true)
    let a = try client.result("board", #"{"targets": ["a"]}"#)
    #expect(a == (try json(#"{"targets": {"a": ["x"]}, "data": {}, "itemData": {}}"#)))
    let described = try client.result("describe", #"{"targets": ["a"], "staged": false}"#)
    #expect(described.objectValue?["targets"]?.arrayValue?.count == 1)
    let unknown = try client.error("board", #"{"targets": ["a", "nowhere"]}"#)
    #expect(unknown.objectValue?["data"]?.objectValue?["path"] == .string("$.params.targets[1]"))
    #expect(try client.error("describe", #"{"targets": "a"}"#).objectValue?["code"] == .integer(-32602))
  }

  @Test("a move whose step printed past the bound ran: its answer is an error, and the drag goes on")
  func printingStep() throws {
    let directory = try TemporaryDirectory()
    let rules = """
      return { box = {
        dropUpdated = function() for i = 1, 200 do print(string.rep("p", 8000)) end return "move" end,
        performDrop = function() return true end,
      } }
      """
    let client = try ProtocolClient(rules: rules, directory: directory, maximumAnswerBytes: 1 << 20)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    let error = try client.error("move", #"{"over": "b"}"#)
    #expect(error.objectValue?["data"]?.objectValue?["method"] == .string("move"))
    #expect(client.dispatcher.session.host.lastStep?.target == "b")
    #expect(try client.result("drop").objectValue?["outcome"] == .string("performed"))
    #expect(try client.result("errors") == (try json(#"{"errors": []}"#)))
  }

  @Test("the requests after the bound in a batch do not run, notifications neither")
  func restNotRun() throws {
    let directory = try TemporaryDirectory()
    let client = try filledClient(directory, bound: 1 << 20)
    let before = client.dispatcher.session.host.board
    let text = try #require(
      client.dispatcher.respond(
        to: """
          [{"jsonrpc": "2.0", "id": 1, "method": "board"},
           {"jsonrpc": "2.0", "method": "setBoard", "params": {"targets": []}},
           {"jsonrpc": "2.0", "id": 3, "method": "setBoard", "params": {"targets": []}}]
          """))
    let answers = try #require(try JSONValue.parse(text).arrayValue)
    #expect(answers.count == 2)
    #expect(answers[1].objectValue?["error"]?.objectValue?["data"]?.objectValue?["notRun"] == .bool(true))
    #expect(client.dispatcher.session.host.board == before)
  }

  @Test("a batch of 1,000 requests under a bound of 64 KiB: every one answered, in order, one line of JSON")
  func thousandRequests() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: Self.rules, directory: directory, maximumAnswerBytes: 64 << 10)
    let text = try #require(client.dispatcher.respond(to: Self.batch(1000, "describe")))
    let answers = try #require(try JSONValue.parse(text).arrayValue)
    #expect(answers.map { $0.objectValue?["id"] } == (1...1000).map { .integer(Int64($0)) })
    let results = answers.prefix { $0.objectValue?["result"] != nil }.count
    #expect(results > 10 && results < 1000)
    #expect(text.utf8.count < (64 << 10) + 1000 * 400, "\(text.utf8.count) bytes")
  }

  @Test("an error answer whose id alone is over the bound is written whole, and so ends the batch")
  func longIDs() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: Self.rules, directory: directory, maximumAnswerBytes: 1024)
    let id = String(repeating: "i", count: 100_000)
    for method in ["version", "mvoe"] {
      let response = try #require(try client.raw(#"{"jsonrpc": "2.0", "id": "\#(id)", "method": "\#(method)"}"#))
      #expect(response.objectValue?["id"] == .string(id))
      #expect(response.objectValue?["error"] != nil)
    }
    // Not a request: the error that says so echoes the id it could read.
    let invalid = try #require(try client.raw(#"{"jsonrpc": "1.0", "id": "\#(id)", "method": "version"}"#))
    #expect(invalid.objectValue?["id"] == .string(id))
    let text = try #require(
      client.dispatcher.respond(
        to: #"[{"jsonrpc": "2.0", "id": "\#(id)", "method": "mvoe"}, {"jsonrpc": "2.0", "id": 2, "method": "version"}]"#
      ))
    let answers = try #require(try JSONValue.parse(text).arrayValue)
    #expect(answers[1].objectValue?["error"]?.objectValue?["data"]?.objectValue?["notRun"] == .bool(true))
  }

  @Test("huge numbers, infinities and NaN a rule stores answer as JSON under the bound")
  func oddNumbers() throws {
    let directory = try TemporaryDirectory()
    let rules = """
      return { box = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, target)
          target:set("big", 1.7976931348623157e308)
          target:set("small", -9223372036854775807 - 1)
          pcall(target.set, target, "nan", 0/0)
          pcall(target.set, target, "inf", math.huge)
          return true
        end,
      } }
      """
    let client = try ProtocolClient(rules: rules, directory: directory, maximumAnswerBytes: 4096)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    _ = try client.result("move", #"{"over": "b"}"#)
    _ = try client.result("drop")
    let data = try client.result("board").objectValue?["data"]?.objectValue?["b"]?.objectValue
    #expect(data?["big"] == .number(1.7976931348623157e308))
    #expect(data?["small"] == .integer(.min))
    #expect(data?["nan"] == nil || data?["nan"] == .null)
  }

  @Test("trace is written step by step, as the value, and bounded like any answer")
  func trace() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: Self.rules, directory: directory, maximumAnswerBytes: 16 << 10)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    for _ in 0..<5 { _ = try client.result("move", #"{"over": "b"}"#) }
    #expect(try client.result("trace") == TraceReport.json(client.dispatcher.session.host.trace))
    for _ in 0..<200 { _ = try client.result("move", #"{"over": "a"}"#) }
    #expect(try client.error("trace").objectValue?["code"] == .integer(-32002))
  }

  @Test("the writer never holds more than its limit, whatever it is asked to write")
  func writerHoldsItsLimit() throws {
    let writer = JSONTextWriter(capacity: 16, byteLimit: 1000)
    let big = JSONValue.array(Array(repeating: .string(String(repeating: "y", count: 10_000)), count: 1000))
    let start = writer.mark
    writer.value(big)
    #expect(writer.isFull)
    #expect(writer.byteCount <= 1000 && writer.reservedBytes <= 1000)
    writer.rewind(to: start)
    writer.value(.string("short"))
    #expect(!writer.isFull && writer.text == #""short""#)
    #expect(writer.withLineBytes { Array($0) } == Array(#""short""#.utf8) + [10])
  }
}
