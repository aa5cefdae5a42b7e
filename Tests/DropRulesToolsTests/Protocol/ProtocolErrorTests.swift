import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

private let rules =
  "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }"

/// The code, message and data of an error, read from a whole response.
private func error(in response: JSONValue?) -> (code: Int64?, message: String, data: JSONValue?) {
  let error = response?.objectValue?["error"]?.objectValue
  return (error?["code"]?.integerValue, error?["message"]?.stringValue ?? "", error?["data"])
}

@Suite("host protocol: errors")
struct ProtocolErrorTests {
  @Test(
    "text that is not JSON is a parse error with id null: garbage, NaN, huge numbers, deep nesting, bad UTF-8",
    arguments: [
      "garbage", #"{"jsonrpc": "2.0", "id": 1, "method": "move", "params": {"at": [NaN, 1]}}"#,
      #"{"jsonrpc": "2.0", "id": 1, "method": "move", "params": {"at": [1e999, 1]}}"#,
      #"{"jsonrpc": "2.0", "id": 1, "method": "version",}"#, #"{"id": 1, "id": 2}"#, "deeply nested",
    ])
  func parseErrors(text: String) throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    // Named here, built here: the test's name stays short.
    let request =
      text == "deeply nested" ? String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) : text
    let response = try #require(try client.raw(request))
    #expect(response.objectValue?["id"] == .null)
    #expect(error(in: response).code == -32700)
    #expect(error(in: response).message.hasPrefix("parse error: line 1, column "))
  }

  @Test("invalid UTF-8 is a parse error, and the server answers the next request")
  func invalidUTF8() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    let bytes = Data(#"{"jsonrpc": "2.0", "id": "\#u{FF}", "method": "version"}"#.utf8).map { $0 == 0xC3 ? 0xFF : $0 }
    #expect(error(in: try client.raw(Data(bytes))).code == -32700)
    #expect(try client.result("version").objectValue?["protocol"] == .integer(1))
  }

  @Test(
    "a value that is not a request is an invalid request; the id is echoed when it could be read",
    arguments: [
      ("5", JSONValue.null, "invalid request: expected an object, got a number"),
      (
        #"{"jsonrpc": "1.0", "id": 7, "method": "version"}"#, .integer(7),
        #"invalid request: "jsonrpc" must be "2.0", got "1.0""#
      ),
      (#"{"id": 7, "method": "version"}"#, .integer(7), #"invalid request: "jsonrpc" must be "2.0", got nothing"#),
      (
        #"{"jsonrpc": "2.0", "id": true, "method": "version"}"#, .null,
        #"invalid request: "id" must be a string, an integer of at most 64 bits or null, got true"#
      ),
      (
        #"{"jsonrpc": "2.0", "id": 1.5, "method": "version"}"#, .null,
        #"invalid request: "id" must be a string, an integer of at most 64 bits or null, got 1.5"#
      ),
      (
        #"{"jsonrpc": "2.0", "id": 18446744073709551616, "method": "version"}"#, .null,
        #"invalid request: "id" must be a string, an integer of at most 64 bits or null, got 1.8446744073709552e+19"#
      ),
      (
        #"{"jsonrpc": "2.0", "id": [1], "method": "version"}"#, .null,
        #"invalid request: "id" must be a string, an integer of at most 64 bits or null, got an array"#
      ),
      (
        #"{"jsonrpc": "2.0", "id": 3, "method": 4}"#, .integer(3), #"invalid request: "method" must be a string, got 4"#
      ),
      (
        #"{"jsonrpc": "2.0", "id": 3, "method": "move", "params": "at"}"#, .integer(3),
        #"invalid request: "params" must be an object or an array, got a string"#
      ),
      (
        #"{"jsonrpc": "2.0", "id": 3, "method": "move", "parms": {}}"#, .integer(3),
        #"invalid request: unknown member "parms"; did you mean params?"#
      ),
      (
        // Of several unknown members, the first in sorted order, whatever order they came in.
        #"{"zeta": 1, "jsonrpc": "1.0", "id": 3, "method": "move", "parms": {}, "alpha2": 0, "omega": 2}"#, .integer(3),
        #"invalid request: unknown member "alpha2""#
      ),
      ("[]", .null, "invalid request: an empty batch"),
    ])
  func invalidRequests(text: String, id: JSONValue, message: String) throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    let response = try #require(try client.raw(text))
    #expect(response.objectValue?["id"] == id)
    #expect(error(in: response).code == -32600)
    #expect(error(in: response).message == message)
  }

  @Test("ids come back as they were sent: strings, 64-bit integers, null")
  func ids() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    for id in [#""a\u0000b""#, "9223372036854775807", "-9223372036854775808", "null", #""""#] {
      let response = try client.raw(#"{"jsonrpc": "2.0", "id": \#(id), "method": "version"}"#)
      #expect(response?.objectValue?["id"] == (try json(id)))
      #expect(response?.objectValue?["result"] != nil)
    }
  }

  @Test("an unknown method names the nearest one")
  func methodNotFound() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    #expect(
      try client.error("mvoe")
        == (try json(
          #"""
          {"code": -32601, "message": "method not found: 'mvoe'; did you mean move?",
           "data": {"method": "mvoe", "suggestion": "move"}}
          """#)))
    #expect(
      try client.error("frobnicate")
        == (try json(
          #"""
          {"code": -32601, "message": "method not found: 'frobnicate'", "data": {"method": "frobnicate"}}
          """#)))
  }

  @Test("a method name of 2 MB is not found, quickly, and is echoed cut to 60 scalars")
  func longMethodName() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    let name = String(repeating: "m", count: 2_000_000)
    let error = try client.error(name)
    #expect(
      error.objectValue?["message"]
        == .string("method not found: '\(String(repeating: "m", count: 59))…' (2000000 bytes)"))
    // Cut like the message: a client that sent 2 MB is not sent 2 MB back.
    #expect(error.objectValue?["data"] == .object(["method": .string(String(repeating: "m", count: 59) + "…")]))
    #expect(try client.error("moev").objectValue?["data"]?.objectValue?["suggestion"] == .string("move"))
  }

  @Test(
    "wrong params are invalid params with the JSON path of the problem",
    arguments: [
      ("move", #"{"at": [1, "x"]}"#, "$.params.at[1]", "expected a number, got a string"),
      ("move", #"{"at": [1]}"#, "$.params.at", "expected [x, y], got 1 values"),
      ("move", #"{"att": [1, 2]}"#, "$.params.att", "unknown key 'att'; did you mean at?"),
      ("move", #"{}"#, "$.params", #"expected {"at": [x, y]} or {"over": id, "index": n}"#),
      ("move", #"{"over": "b", "index": 1.5}"#, "$.params.index", "expected a whole number"),
      ("move", #"[50, 50]"#, "$.params", "expected an object of named params, got an array"),
      (
        "modifiers", #"{"modifiers": ["hyper"]}"#, "$.params.modifiers[0]",
        #"unknown value "hyper"; expected one of "option", "command", "shift", "control""#
      ),
      ("modifiers", #"{}"#, "$.params.modifiers", "required key 'modifiers' is missing"),
      (
        "outside", #"{"operation": "link"}"#, "$.params.operation",
        #"unknown operation "link"; expected "copy" or "move""#
      ),
      ("drop", #"{"now": true}"#, "$.params.now", "unknown key 'now'"),
    ])
  func invalidParamsDuringDrag(method: String, params: String, path: String, message: String) throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    #expect(
      try client.error(method, params)
        == .object([
          "code": .integer(-32602), "message": .string("invalid params: \(path): \(message)"),
          "data": .object(["path": .string(path), "message": .string(message)]),
        ]))
    // The drag goes on.
    #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("move"))
  }

  @Test(
    "any whole index is clamped to the list, as an index out of range is: the 64-bit extremes, 10^9, 1e300",
    arguments: ["-9223372036854775808", "9223372036854775807", "-1000000000", "1000000000", "1e300", "-1e300"])
  func extremeIndex(index: String) throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    let answer = try client.result("move", #"{"over": "b", "index": \#(index)}"#).objectValue
    #expect(answer?["proposal"] == .string("move"))
    // b holds nothing: its one gap.
    #expect(answer?["index"] == .integer(1), "\(answer ?? [:])")
  }

  @Test(
    "wrong params between drags: the path points into the board, the drag or the rule list",
    arguments: [
      ("beginDrag", #"{"items": []}"#, "$.params.items", "a drag needs at least one item"),
      (
        "beginDrag", #"{"items": ["x"], "allowedOperations": ["link"]}"#, "$.params.allowedOperations[0]",
        #"unknown value "link"; expected one of "copy", "move""#
      ),
      (
        "setBoard", #"{"targets": [{"id": "a", "type": "box", "frame": [0, 0, -1, 5]}]}"#, "$.params.targets[0].frame",
        "width and height must not be negative"
      ),
      (
        "setBoard", #"{"targets": [{"id": "a", "type": "box", "frame": [0, 0, 1, 1], "parent": "z"}]}"#,
        "$.params.targets[0].parent", "target 'a' names parent 'z', which does not exist"
      ),
      ("setBoard", #"{"types": [{}], "targets": []}"#, "$.params.types[0].id", "required key 'id' is missing"),
      ("setBoard", #"{"types": []}"#, "$.params.targets", "required key 'targets' is missing"),
      ("load", #"{"rules": [5]}"#, "$.params.rules[0]", "expected a string, got a number"),
      ("board", #"{"staged": "yes"}"#, "$.params.staged", "expected a boolean, got a string"),
      ("version", #"{"verbose": true}"#, "$.params.verbose", "unknown key 'verbose'"),
    ])
  func invalidParamsBetweenDrags(method: String, params: String, path: String, message: String) throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    let error = try client.error(method, params).objectValue
    #expect(error?["code"] == .integer(-32602))
    #expect(error?["data"] == .object(["path": .string(path), "message": .string(message)]))
    // Nothing changed.
    #expect(
      try client.result("board") == (try json(#"{"targets": {"a": ["x"], "b": []}, "data": {}, "itemData": {}}"#)))
  }

  @Test("drag calls at the wrong time or naming what is not there are drag errors with a kind")
  func dragErrors() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    let noDrag = try json(
      #"{"code": -32000, "message": "no drag in progress; begin one first", "data": {"kind": "noDrag"}}"#)
    for (method, params) in [("move", #"{"at": [1, 1]}"#), ("modifiers", "{}"), ("outside", nil), ("drop", nil)] {
      #expect(try client.error(method, params) == noDrag)
    }
    #expect(try client.error("cancel") == noDrag)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    let inProgress = try json(
      #"""
      {"code": -32000, "message": "a drag is in progress; drop or cancel it first", "data": {"kind": "dragInProgress"}}
      """#)
    #expect(try client.error("beginDrag", #"{"items": ["x"]}"#) == inProgress)
    #expect(try client.error("setBoard", #"{"targets": []}"#) == inProgress)
    #expect(try client.error("load") == inProgress)
    #expect(
      try client.error("move", #"{"over": "nowhere"}"#)
        == (try json(
          #"{"code": -32000, "message": "no target with id 'nowhere'", "data": {"kind": "unknownTarget", "target": "nowhere"}}"#
        )))
    #expect(try client.result("drop").objectValue?["outcome"] == .string("cancelled"))
  }

  @Test("a request longer than the maximum is an invalid request that names both sizes")
  func overlongRequest() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: rules, directory: directory)
    let size = ProtocolDispatcher.maximumRequestBytes + 1
    let response = try client.raw(Data(repeating: UInt8(ascii: "["), count: size))
    #expect(response?.objectValue?["id"] == .null)
    #expect(error(in: response).code == -32600)
    #expect(error(in: response).data == (try json(#"{"bytes": 16777217, "maximumBytes": 16777216}"#)))
  }
}
