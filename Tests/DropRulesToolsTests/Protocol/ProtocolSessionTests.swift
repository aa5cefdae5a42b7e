import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

@Suite("host protocol: rules, boards, notifications and batches")
struct ProtocolSessionTests {
  @Test("load replaces the rule set; load without rules reloads the edited files")
  func loadReplacesAndReloads() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules:
        "return { box = { dropUpdated = function() return 'copy' end, performDrop = function() return true end } }",
      directory: directory)
    let path = directory.path + "/rules.lua"
    func proposal() throws -> JSONValue? {
      _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
      defer { _ = try? client.result("cancel") }
      return try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"]
    }
    #expect(try proposal() == .string("copy"))
    try "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }"
      .write(
        toFile: path, atomically: true, encoding: .utf8)
    // Edited, not yet loaded: the loaded rules are unchanged.
    #expect(try proposal() == .string("copy"))
    #expect(
      try client.result("load")
        == .object(["files": .array([.string(path)]), "warnings": .array([]), "printed": .array([])]))
    #expect(try proposal() == .string("move"))
    // Another file replaces this one: box has no rule now, so nothing takes the drop.
    let other = try directory.write("other/shelf.lua", "print('shelf loaded') return { shelf = {} }")
    let loaded = try client.result("load", #"{"rules": ["\#(directory.path)/other"]}"#).objectValue
    #expect(loaded?["files"] == .array([.string(other)]))
    #expect(loaded?["printed"] == .array([.string("shelf loaded")]))
    // An empty rule loads, with a warning: its targets would forbid every drop.
    #expect(
      loaded?["warnings"]?.arrayValue?.map { $0.stringValue ?? "" }
        == [
          "\(other):1: the rule for 'shelf' is empty, so its targets forbid every drop; add performDrop (return true to commit the drop)"
        ])
    #expect(try proposal() == .string("cancel"))
    #expect(try client.result("describe").objectValue?["rules"] == .array([.string(other)]))
  }

  @Test("a rule file that does not load is an error listing file:line problems, and the old rules stay")
  func loadErrorKeepsRules() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules:
        "return { box = { dropUpdated = function() return 'copy' end, performDrop = function() return true end } }",
      directory: directory)
    let broken = try directory.write("broken.lua", "return { box = { dropUpdate = function() end } }")
    let syntax = try directory.write("syntax.lua", "return {\n  box = \n")
    #expect(
      try client.error("load", #"{"rules": ["\#(broken)", "\#(syntax)"]}"#)
        == .object([
          "code": .integer(-32001),
          "message": .string(
            "rules did not load: \(broken):1: unknown handler 'dropUpdate' in the rule for 'box'; did you mean dropUpdated?; \(syntax):3: unexpected symbol near <eof>"
          ),
          "data": .object([
            "problems": .array([
              .string(
                "\(broken):1: unknown handler 'dropUpdate' in the rule for 'box'; did you mean dropUpdated?"),
              .string("\(syntax):3: unexpected symbol near <eof>"),
            ])
          ]),
        ]))
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("copy"))
  }

  @Test("a board set between drags is the board rules see in the next drag, and load keeps it")
  func setBoardBetweenDrags() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules: """
        return { box = {
          dropUpdated = function(info, box)
            local spare = info.board:target("spare")
            print(spare and ("spare at " .. spare.frame[1]) or "no spare")
            return "move"
          end,
          performDrop = function(info, box) box:insert(info.items) return true end,
        } }
        """, directory: directory)
    func printed() throws -> [JSONValue] {
      _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
      let step = try client.result("move", #"{"over": "b"}"#)
      _ = try client.result("drop")
      return step.objectValue?["calls"]?.arrayValue?.compactMap { $0.objectValue?["printed"] } ?? []
    }
    #expect(try printed() == [.array([.string("no spare")])])
    #expect(
      try client.result(
        "setBoard",
        #"{"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]},"#
          + #"{"id": "b", "type": "box", "frame": [100, 0, 100, 100]},"#
          + #"{"id": "spare", "type": "box", "frame": [500, 0, 10, 10]}]}"#)
        == (try json(#"{"targets": 3, "items": 1}"#)))
    #expect(try printed() == [.array([.string("spare at 500")])])
    #expect(
      try client.result("board")
        == (try json(#"{"targets": {"a": [], "b": ["x"], "spare": []}, "data": {}, "itemData": {}}"#)))
    // A reload keeps the board as the drags left it.
    _ = try client.result("load")
    #expect(
      try client.result("board")
        == (try json(#"{"targets": {"a": [], "b": ["x"], "spare": []}, "data": {}, "itemData": {}}"#)))
  }

  @Test("types declared by setBoard hold in the hosts that load builds")
  func typesSurviveLoad() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules:
        "return { box = { accepts = { 'com.example.card' }, dropUpdated = function() return 'move' end, performDrop = function() return true end } }",
      directory: directory)
    _ = try client.result(
      "setBoard",
      #"{"types": [{"id": "com.example.task", "conformsTo": ["com.example.card"]}],"#
        + #""targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100],"#
        + #""items": [{"id": "t", "representations": [["com.example.task", "{}"]]}]},"#
        + #"{"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}"#)
    for _ in 0..<2 {
      _ = try client.result("load")
      _ = try client.result("beginDrag", #"{"items": ["t"]}"#)
      #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("move"))
      _ = try client.result("cancel")
    }
  }

  @Test("a rule that loops forever is stopped by the budget or the deadline, named with its LuaLimits setting")
  func runawayRule() throws {
    let directory = try TemporaryDirectory()
    let loop = "return { box = { dropUpdated = function() while true do end end } }"
    let cases = [
      (LuaLimits(), "instruction budget of 1000000 exceeded (raise it with LuaLimits.maxInstructions)", "instructions"),
      (
        LuaLimits(maxInstructions: 1_000_000_000_000, maxTime: .milliseconds(100)),
        "time limit of 100 ms exceeded (raise it with LuaLimits.maxTime)", "time"
      ),
    ]
    for (limits, expected, limit) in cases {
      let client = try ProtocolClient(rules: loop, directory: directory, limits: limits)
      _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
      let step = try #require(try client.result("move", #"{"over": "b"}"#).objectValue)
      #expect(step["proposal"] == .string("forbidden"))
      let error = step["errors"]?.arrayValue?.first?.objectValue
      #expect(error?["message"]?.stringValue == expected)
      #expect(error?["limit"] == .string(limit))
      #expect(try client.result("drop").objectValue?["outcome"] == .string("cancelled"))
    }
  }

  @Test("a rule file whose top level never ends does not load, and the session keeps its rules")
  func runawayLoad() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules:
        "return { box = { dropUpdated = function() return 'copy' end, performDrop = function() return true end } }",
      directory: directory)
    let loop = try directory.write("loop/loop.lua", "while true do end")
    let error = try client.error("load", #"{"rules": ["\#(loop)"]}"#).objectValue
    #expect(error?["code"] == .integer(-32001))
    #expect(error?["message"]?.stringValue?.contains("exceeded") == true)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("copy"))
  }

  @Test("notifications run and get no answer, even when they fail; blank lines are no requests")
  func notifications() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules:
        "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }",
      directory: directory)
    #expect(try client.raw(#"{"jsonrpc": "2.0", "method": "beginDrag", "params": {"items": ["x"]}}"#) == nil)
    #expect(try client.raw(#"{"jsonrpc": "2.0", "method": "move", "params": {"at": "nowhere"}}"#) == nil)
    #expect(try client.raw(#"{"jsonrpc": "2.0", "method": "nosuchmethod"}"#) == nil)
    #expect(try client.raw(" \t\r\n") == nil)
    #expect(try client.raw("") == nil)
    // The notified drag is in progress.
    #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("move"))
  }

  @Test("a batch runs in order and is answered with an array, without its notifications")
  func batches() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules:
        "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }",
      directory: directory)
    let response = try client.raw(
      #"""
      [{"jsonrpc": "2.0", "method": "beginDrag", "params": {"items": ["x"]}},
       {"jsonrpc": "2.0", "id": "m", "method": "move", "params": {"over": "b"}},
       1,
       {"jsonrpc": "2.0", "id": "e", "method": "mvoe"},
       {"jsonrpc": "2.0", "id": "d", "method": "cancel"}]
      """#)
    let answers = try #require(response?.arrayValue)
    #expect(answers.map { $0.objectValue?["id"] } == [.string("m"), .null, .string("e"), .string("d")])
    #expect(answers[0].objectValue?["result"]?.objectValue?["proposal"] == .string("move"))
    #expect(answers[1].objectValue?["error"]?.objectValue?["code"] == .integer(-32600))
    #expect(answers[2].objectValue?["error"]?.objectValue?["code"] == .integer(-32601))
    #expect(answers[3].objectValue?["result"]?.objectValue?["outcome"] == .string("cancelled"))
    #expect(try client.raw(#"[{"jsonrpc": "2.0", "method": "version"}]"#) == nil)
    let tooMany = "[" + Array(repeating: "1", count: 1001).joined(separator: ",") + "]"
    #expect(
      try client.raw(tooMany)?.objectValue?["error"]?.objectValue?["message"]
        == .string("invalid request: a batch of 1001 requests; a batch holds at most 1000"))
  }
}
