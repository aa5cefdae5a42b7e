import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesTesting
@testable import DropRulesTools

/// Bugs planted in rule sets, as users report them against drag-and-drop libraries: each
/// must be found within 2,000 drags, shrunk to at most 5 steps, and written as a scenario
/// that replays to the same failure.
@Suite("droprules fuzz finds planted bugs")
struct FuzzFindsTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Fuzzes `rules` over `targets` (JSON) and returns the report; the scenario file lies
  /// in the temporary folder, beside the rules.
  func fuzz(rules: String, targets: String, drags: Int = 2_000, seed: UInt64 = 1, testFile: String? = nil) throws
    -> Fuzzer.Report
  {
    let rulePath = try directory.write("planted.lua", rules)
    let scenarioPath = try directory.write(
      "planted.scenario.json",
      #"{"name": "planted", "rules": ["planted.lua"], "board": {"targets": \#(targets)}, "drag": {"items": ["a"]}, "steps": []}"#
    )
    let testFiles = try testFile.map { [try directory.write("planted_test.lua", $0)] } ?? []
    let scenario = try ScenarioDecoder.load(path: scenarioPath)
    let fuzzer = try Fuzzer(
      scenario: scenario, runner: ScenarioRunner(), extraRules: [rulePath], testFiles: testFiles)
    var options = Fuzzer.Options()
    options.drags = drags
    options.seed = seed
    options.outputDirectory = directory.path + "/out"
    return try fuzzer.run(options)
  }

  /// The written scenario, replayed by itself (its copied rules), breaks the same property.
  func expectReplays(_ report: Fuzzer.Report, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let finding = try #require(report.finding, sourceLocation: sourceLocation)
    let file = try #require(finding.file, Comment(rawValue: finding.writeError ?? ""), sourceLocation: sourceLocation)
    let replayed = try ScenarioDecoder.load(path: file)
    #expect(replayed.steps.count <= 5, "\(replayed.steps)", sourceLocation: sourceLocation)
    let again = try Fuzzer.replay(replayed, runner: ScenarioRunner())
    #expect(again?.property == finding.failure.property, sourceLocation: sourceLocation)
    // droprules run replays it too: the binary is tested elsewhere; the runner is the same.
    let result = try ScenarioRunner().run(replayed)
    #expect(result.trace.count >= 2, sourceLocation: sourceLocation)
  }

  static let lists = """
    [{"id": "full", "type": "list", "frame": [0, 0, 200, 120], "itemExtent": 40, "data": {"capacity": 3},
      "items": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}]},
     {"id": "other", "type": "list", "frame": [300, 0, 200, 120], "itemExtent": 40,
      "items": [{"id": "d", "name": "D"}]}]
    """

  @Test("a rule that loses an item only with option held over the second gap of a full list")
  func lostItem() throws {
    let report = try fuzz(
      rules: """
        return { list = {
          dropUpdated = function(info, list)
            if not info.allowedOperations.move then return "forbidden" end
            return { operation = "move", index = info.index }
          end,
          performDrop = function(info, list)
            local item = info.items[1]
            if info.modifiers.option and info.index == 2 and #list.items >= (list.data.capacity or 99)
              and item.container then
              item.container:remove(item)   -- meant to make room; forgot to insert
              return true
            end
            list:insert(info.items, info.index)
            return true
          end,
        } }
        """, targets: Self.lists)
    let finding = try #require(report.finding)
    #expect(finding.failure.property == "a drop keeps every item", "\(finding.failure)")
    #expect(finding.failure.owner == .rule)
    #expect(report.drags <= 2_000)
    try expectReplays(report)
  }

  @Test("a rule that inserts the original under a copy")
  func originalUnderCopy() throws {
    let report = try fuzz(
      rules: """
        return { list = {
          dropUpdated = function(info, list)
            return info.modifiers.option and "copy" or "move"
          end,
          performDrop = function(info, list) list:insert(info.items, info.index) return true end,
        } }
        """, targets: Self.lists)
    let finding = try #require(report.finding)
    #expect(finding.failure.property == "no rule error")
    #expect(finding.failure.detail.contains("a copy never takes from its source"), "\(finding.failure)")
    #expect(finding.failure.line == 5)
    try expectReplays(report)
  }

  @Test("two overlapping targets whose live preview moves each under the other flip while the pointer rests")
  func flippingTargets() throws {
    // x and y share a frame; each row opens one. Entering one moves the other's row into
    // it (a preview), which makes the other deeper, so the next step prefers it; leaving
    // puts the row back. The pointer has not moved.
    let report = try fuzz(
      rules: """
        local other = { x = "y-row", y = "x-row" }
        return { box = {
          dropEntered = function(info, box)
            local row = info.board:item(other[box.id])
            if row and row.container ~= box then box:insert(row) end
          end,
          dropExited = function(info, box)
            if info.outcome then return end
            local row = info.board:item(other[box.id])
            if row and row.container == box then info.board:target("list"):insert(row) end
          end,
          dropUpdated = function() return "move" end,
          performDrop = function() return true end,
        },
        list = { performDrop = function() return true end } }
        """,
      targets: """
        [{"id": "list", "type": "list", "frame": [0, 0, 100, 300], "itemExtent": 40,
          "items": [{"id": "x-row", "name": "X", "opens": "x"}, {"id": "y-row", "name": "Y", "opens": "y"},
                    {"id": "a", "name": "A"}]},
         {"id": "x", "type": "box", "frame": [200, 0, 100, 100]},
         {"id": "y", "type": "box", "frame": [200, 0, 100, 100]}]
        """)
    let finding = try #require(report.finding)
    #expect(finding.failure.property == "the target does not flip", "\(finding.failure)")
    try expectReplays(report)
  }

  @Test("an author's property breaks: the drag that breaks it is found and replays")
  func authorProperty() throws {
    let report = try fuzz(
      rules: """
        return { list = {
          dropUpdated = function(info, list) return { operation = "move", index = info.index } end,
          performDrop = function(info, list) list:insert(info.items, info.index) return true end,
        } }
        """, targets: Self.lists,
      testFile: """
        property("a list holds at most three items", function(board)
          for id, target in pairs(board.targets) do
            if #target.items > 3 then return false, id .. " holds " .. #target.items end
          end
        end)
        """)
    let finding = try #require(report.finding)
    #expect(finding.failure.property == "a list holds at most three items")
    #expect(finding.failure.owner == .author)
    #expect(finding.failure.detail.hasPrefix("full holds 4"))
    #expect(report.authorProperties == 1)
  }

  @Test("the same seed makes the same drags; another seed others")
  func seeds() throws {
    let generator = DragGenerator(externalItems: [])
    let board = try ScenarioDecoder(file: "t", baseDirectory: ".").decodeBoard(
      try JSONValue.parse(#"{"targets": \#(Self.lists)}"#))
    var first = SeededRandom(seed: 9)
    var second = SeededRandom(seed: 9)
    var third = SeededRandom(seed: 10)
    let drags = (0..<50).map { _ in generator.drag(on: board, using: &first) }
    #expect(drags == (0..<50).map { _ in generator.drag(on: board, using: &second) })
    #expect(drags != (0..<50).map { _ in generator.drag(on: board, using: &third) })
  }

  @Test("a clean rule set fuzzes clean, and the report counts what ran")
  func clean() throws {
    let report = try fuzz(
      rules: """
        return { list = {
          dropUpdated = function(info, list) return { operation = "move", index = info.index } end,
          performDrop = function(info, list)
            if info.operation == "copy" then
              local copies = {}
              for i, item in ipairs(info.items) do copies[i] = item.container and item:copy() or item end
              list:insert(copies, info.index)
            else
              list:insert(info.items, info.index)
            end
            return true
          end,
        } }
        """, targets: Self.lists, drags: 1_000)
    #expect(report.finding == nil, "\(report.finding?.failure.description ?? "")")
    #expect(report.drags == 1_000)
    #expect(report.steps > 5_000)
    #expect((report.outcomes[.performed] ?? 0) > 100)
  }
}
