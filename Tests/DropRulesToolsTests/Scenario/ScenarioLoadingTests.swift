import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

@Suite("Loading scenario files: nulls, byte order marks, errors with line and column")
struct ScenarioLoadingTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func load(_ text: String) throws(ScenarioError) -> Scenario {
    let path: String
    do { path = try directory.write("s.scenario.json", text) } catch {
      throw ScenarioError(file: "s.scenario.json", path: "", message: "cannot write: \(error)")
    }
    return try ScenarioDecoder.load(path: path)
  }

  func loadError(_ text: String) -> ScenarioError? {
    do {
      _ = try load(text)
      return nil
    } catch {
      return error
    }
  }

  @Test("an optional key set to null is the same as leaving it out")
  func nulls() throws {
    let scenario = try load(
      """
      {"name": null, "rules": null, "types": null, "expect": null,
       "board": {"targets": [
         {"id": "a", "type": "box", "frame": [0, 0, 10, 10], "parent": null, "data": null, "items": null,
          "axis": null, "itemExtent": null},
         {"id": "b", "type": "box", "frame": [0, 0, 5, 5], "parent": "a",
          "items": [{"id": "x", "name": null, "representations": null}]}]},
       "drag": {"items": ["x"], "allowedOperations": null, "modifiers": null},
       "steps": [{"over": "a", "index": null}, {"outside": {"accepts": null, "operation": null}}]}
      """)
    #expect(scenario.board.target("a")?.parent == nil)
    #expect(scenario.board.target("b")?.parent == "a")
    #expect(scenario.name.hasSuffix("s.scenario.json"))
    #expect(scenario.expect == nil)
    #expect(scenario.drag.allowedOperations == [.copy, .move])
    #expect(scenario.steps == [.over("a", index: nil), .outside(accepts: ["public.item"], operation: .copy)])
    // A required key cannot be null.
    let error = loadError(
      #"{"board": {"targets": [{"id": null, "type": "box", "frame": [0, 0, 1, 1]}]}, "drag": {"items": [{"id": "x"}]}}"#
    )
    #expect(error?.message == "expected a string, got null")
    #expect(error?.path == "board.targets[0].id")
  }

  @Test("a scenario file may start with a UTF-8 byte order mark")
  func byteOrderMark() throws {
    let scenario = try load(
      "\u{FEFF}"
        + #"{"name": "bom", "board": {"targets": []}, "drag": {"items": [{"id": "x"}]}}"#)
    #expect(scenario.name == "bom")
    // Columns of errors still count from the first character after the mark.
    let error = loadError("\u{FEFF}" + #"{"board": 5, "drag": {"items": [{"id": "x"}]}}"#)
    #expect(error.map { "\($0.line ?? 0):\($0.column ?? 0)" } == "1:11")
  }

  @Test("an error found after parsing names the line and column of the value, and its path")
  func locatedErrors() throws {
    let text = """
      {
        "board": {"targets": [
          {"id": "a", "type": "box",
           "frame": [0, 0, -1, 1]},
          {"id": "b", "type": "box"}
        ]},
        "drag": {"items": ["ghost"]}
      }
      """
    let frame = try #require(loadError(text))
    #expect(frame.line == 4)
    #expect(frame.column == 15)
    #expect(frame.path == "board.targets[0].frame")
    #expect(
      frame.description.hasSuffix(
        ".scenario.json:4:15: width and height must not be negative (at $.board.targets[0].frame)"))
    // A missing key: the object that lacks it.
    let missing = try #require(loadError(text.replacingOccurrences(of: "-1", with: "1")))
    #expect(missing.description.hasSuffix(":5:5: required key 'frame' is missing (at $.board.targets[1].frame)"))
    // Scenarios from Lua tables have no text: path first, as before.
    let decoder = ScenarioDecoder(file: "t_test.lua", baseDirectory: directory.path, firstIndex: 1)
    #expect(throws: ScenarioError.self) { try decoder.decode(.object(["board": .integer(5)])) }
    do {
      _ = try decoder.decode(.object(["board": .integer(5)]))
    } catch {
      #expect(error.line == nil)
      #expect(error.description == "t_test.lua: board: expected an object, got a number")
    }
  }

  @Test("a host loads each rule file once, however often and however it is named")
  func ruleFileOnce() throws {
    let path = try directory.write("rules/box.lua", "print('loaded') return { box = {} }")
    let host = try RuleHost()
    try host.loadRules(atPaths: [path, directory.path + "/rules/../rules/box.lua", directory.path + "//rules/box.lua"])
    try host.loadRules(atPaths: [path])
    #expect(host.ruleFiles == [path])
    #expect(host.loadOutput == ["loaded"])
    // A missing file is still an error, however often it is named.
    #expect(throws: RuleLoadError.self) { try host.loadRules(atPaths: [directory.path + "/none.lua"]) }
  }
}
