import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

private let boxRules = """
  return {
    box = {
      dropUpdated = function(info, box)
        if box.data.broken then error("box " .. box.id .. " is broken") end
        return info.modifiers.option and "copy" or "move"
      end,
      performDrop = function(info, box)
        for _, item in ipairs(info.items) do
          box:insert(info.operation == "copy" and item:copy() or item, info.index)
        end
        return true
      end,
    },
  }
  """

@Suite("host protocol: drags")
struct ProtocolDragTests {
  @Test("each drag method answers with its step, exactly as the trace then shows it")
  func stepsAreTraceSteps() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: boxRules, directory: directory)
    var answers: [JSONValue] = []
    answers.append(try client.result("beginDrag", #"{"items": ["x"]}"#))
    answers.append(try client.result("move", #"{"at": [50, 50]}"#))
    answers.append(try client.result("move", #"{"over": "b", "index": 1}"#))
    answers.append(try client.result("modifiers", #"{"modifiers": ["option"]}"#))
    answers.append(try client.result("drop"))
    let trace = try client.result("trace")
    // The begin step is quiet here (no source handler), so the trace leaves it out.
    #expect(
      answers[0]
        == (try json(
          #"""
          {"number": 0, "action": {"kind": "begin", "items": ["x"]}, "pointer": null, "target": null, "calls": [],
           "proposal": null, "index": null, "over": null, "edge": null, "refused": [], "limits": [], "allowed": null,
           "downgrade": null, "errors": [], "outcome": null, "outcomeReason": null, "skipped": [],
           "skippedOmitted": 0, "printed": [], "announcement": "Picked up X.",
           "preview": {"title": "X", "subtitle": null, "badge": null}, "springLoaded": []}
          """#)))
    #expect(JSONValue.array(Array(answers.dropFirst())) == trace)
    #expect(answers[3].objectValue?["proposal"] == .string("copy"))
    #expect(answers[4].objectValue?["outcome"] == .string("performed"))
    #expect(
      try client.result("board")
        == (try json(#"{"targets": {"a": ["x"], "b": ["x-copy1"]}, "data": {}, "itemData": {}}"#)))
  }

  @Test("a move answers proposal, target, index and a downgrade in the trace's shape; null when absent")
  func moveAnswer() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: boxRules, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"], "allowedOperations": ["copy"]}"#)
    let over = try #require(try client.result("move", #"{"over": "b", "index": 1}"#).objectValue)
    #expect(over["proposal"] == .string("copy"))
    #expect(over["target"] == .string("b"))
    #expect(over["index"] == .integer(1))
    #expect(
      over["downgrade"] == (try json(#"{"from": "move", "to": "copy", "allowed": ["copy"], "limitedBy": [null]}"#)))
    let away = try #require(try client.result("move", #"{"at": [1000, 1000]}"#).objectValue)
    #expect(away["proposal"] == .string("cancel"))
    #expect(away["target"] == .null)
    #expect(away["index"] == .null)
    #expect(away["downgrade"] == .null)
    #expect(try client.result("cancel").objectValue?["outcome"] == .string("cancelled"))
  }

  @Test("outside answers as move does: the app's operation, negotiated")
  func outside() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: boxRules, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"], "allowedOperations": ["copy"]}"#)
    let moved = try #require(try client.result("outside", #"{"operation": "move"}"#).objectValue)
    #expect(moved["proposal"] == .string("copy"))
    #expect(
      moved["downgrade"] == (try json(#"{"from": "move", "to": "copy", "allowed": ["copy"], "limitedBy": [null]}"#)))
    let refused = try client.result("outside", #"{"accepts": ["public.image"]}"#)
    #expect(refused.objectValue?["proposal"] == .string("forbidden"))
    // No params: the defaults, any item as a copy.
    #expect(try client.result("outside").objectValue?["proposal"] == .string("copy"))
    #expect(try client.result("drop").objectValue?["outcome"] == .string("performed"))
  }

  @Test("a rule error is a diagnostic in the step's answer and in errors, not a protocol error")
  func ruleErrorsAreResults() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: boxRules, directory: directory)
    _ = try client.result(
      "setBoard",
      #"{"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]},"#
        + #"{"id": "b", "type": "box", "frame": [100, 0, 100, 100], "data": {"broken": true}}]}"#)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    let step = try #require(try client.result("move", #"{"over": "b"}"#).objectValue)
    #expect(step["proposal"] == .string("forbidden"))
    let errors = try #require(step["errors"]?.arrayValue)
    #expect(errors.count == 1)
    let error = try #require(errors.first?.objectValue)
    #expect(error["message"] == .string("box b is broken"))
    #expect(error["file"] == .string(directory.path + "/rules.lua"))
    #expect(error["line"] == .integer(4))
    #expect(error["handler"] == .string("dropUpdated"))
    #expect(error["step"] == .integer(1))
    #expect(try client.result("errors") == .object(["errors": .array(errors)]))
    #expect(try client.result("drop").objectValue?["outcome"] == .string("cancelled"))
    // A new drag starts with no errors.
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    #expect(try client.result("errors") == (try json(#"{"errors": []}"#)))
  }

  @Test("board and describe show the committed board, or with staged the drag's live preview")
  func stagedBoard() throws {
    let directory = try TemporaryDirectory()
    let preview = """
      return { box = {
        dropEntered = function(info, box) box:set("hover", true) end,
        performDrop = function() return false end,
      } }
      """
    let client = try ProtocolClient(rules: preview, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    _ = try client.result("move", #"{"over": "b"}"#)
    #expect(
      try client.result("board") == (try json(#"{"targets": {"a": ["x"], "b": []}, "data": {}, "itemData": {}}"#)))
    #expect(
      try client.result("board", #"{"staged": true}"#)
        == (try json(#"{"targets": {"a": ["x"], "b": []}, "data": {"b": {"hover": true}}, "itemData": {}}"#)))
    let staged = try client.result("describe", #"{"staged": true}"#)
    #expect(staged.objectValue?["dragging"] == .bool(true))
    #expect(staged.objectValue?["targets"]?.arrayValue?[1].objectValue?["data"] == (try json(#"{"hover": true}"#)))
    #expect(try client.result("drop").objectValue?["outcome"] == .string("failed"))
    #expect(try client.result("board", #"{"staged": true}"#) == (try client.result("board")))
  }

  @Test("a drag whose every item canDrag refuses answers outcome refused, and no drag is in progress")
  func refusedDrag() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules: "return { box = { canDrag = function() return false end } }", directory: directory)
    let begin = try #require(try client.result("beginDrag", #"{"items": ["x"]}"#).objectValue)
    #expect(begin["refused"] == (try json(#"["x"]"#)))
    #expect(begin["outcome"] == .string("refused"))
    #expect(try client.error("move", #"{"at": [1, 1]}"#).objectValue?["code"] == .integer(-32000))
  }

  @Test("describe gives what a client draws: targets in order with frames, items with names, declared types")
  func describe() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: boxRules, directory: directory)
    _ = try client.result(
      "setBoard",
      #"""
      {"types": [{"id": "com.example.card", "conformsTo": ["public.data"]}],
       "targets": [
        {"id": "list", "type": "box", "frame": [0, 0, 200, 300.5], "axis": "vertical", "itemExtent": 40,
         "data": {"title": "Todo"},
         "items": [{"id": "c1", "name": "Card", "representations": [["com.example.card", "{}"]], "data": {"p": 1}}]},
        {"id": "row", "type": "row", "frame": [0, 0, 200, 40], "parent": "list"}]}
      """#)
    #expect(
      try client.result("describe")
        == (try json(
          #"""
          {"targets": [
            {"id": "list", "type": "box", "frame": [0, 0, 200, 300.5], "parent": null, "data": {"title": "Todo"},
             "axis": "vertical", "itemExtent": 40, "collapsed": false,
             "items": [{"id": "c1", "name": "Card", "types": ["com.example.card"], "data": {"p": 1}, "opens": null}]},
            {"id": "row", "type": "row", "frame": [0, 0, 200, 40], "parent": "list", "data": {}, "axis": null,
             "itemExtent": null, "collapsed": false, "items": []}],
           "types": [{"id": "com.example.card", "conformsTo": ["public.data"]}],
           "rules": ["\#(directory.path)/rules.lua"],
           "dragging": false}
          """#)))
  }

  @Test("version names the protocol, every method and the limits")
  func version() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(
      rules: boxRules, directory: directory, limits: LuaLimits(maxInstructions: 5000, maxTime: .seconds(60)))
    #expect(
      try client.result("version")
        == (try json(
          #"""
          {"protocol": 1,
           "methods": ["load", "setBoard", "beginDrag", "move", "modifiers", "outside", "wait", "setFrames", "drop",
                       "cancel", "board", "describe", "trace", "errors", "version"],
           "maximumRequestBytes": 16777216, "maximumAnswerBytes": 134217728, "maximumBatchSize": 1000,
           "limits": {"maxInstructions": 5000, "maxMemory": 67108864, "maxTimeMs": 60000}}
          """#)))
  }
}
