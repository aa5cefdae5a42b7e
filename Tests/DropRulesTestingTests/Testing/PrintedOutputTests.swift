import DropRules
import DropRulesTestSupport
import Testing

@testable import DropRulesTesting

/// What a test prints, and what the rules it drives print, is shown under that test, in
/// the order it was printed, and only up to a bound.
@Suite("Printed output of rule tests")
struct PrintedOutputTests {
  static let printingRule = """
    print("rule file loaded")
    return { box = {
      dropUpdated = function(info, target) print("dropUpdated on " .. target.id) return "move" end,
      performDrop = function(info, target) print("performDrop", #info.items) return true end,
    } }
    """

  @Test("a test's prints and its rules' prints come back under it, in the order printed")
  func printsInOrder() throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", Self.printingRule)
    let file = try directory.write(
      "box_test.lua",
      """
      local function sim()
        return scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end
      test("quiet", function() expect(1):toBe(1) end)
      test("prints around a drag", function()
        print("before the scenario")
        local board = sim()
        print("before the drag", 1, nil, true)
        local drag = board:drag({ { id = "x" } })
        drag:over("a")
        print("between")
        drag:drop()
        print("after the drop")
      end)
      test("prints, then fails", function()
        print("last words")
        expect(1):toBe(2)
      end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.name) == ["quiet", "prints around a drag", "prints, then fails"])
    #expect(results[0].printed.lines == [])
    #expect(
      results[1].printed.lines == [
        "before the scenario", "rule file loaded", "before the drag\t1\tnil\ttrue", "dropUpdated on a", "between",
        "performDrop\t1", "after the drop",
      ])
    #expect(results[2].status == .failed)
    #expect(results[2].printed.lines == ["last words"])
  }

  @Test("a test file's top-level prints belong to the first test that runs: the file loads once")
  func topLevelPrints() throws {
    let directory = try TemporaryDirectory()
    let file = try directory.write(
      "box_test.lua",
      """
      print("top level")
      test("one", function() print("one") end)
      test("two", function() print("two") end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.printed.lines) == [["top level", "one"], ["two"]])
  }

  @Test("a scenario with expect reports what its rules printed while loading and during the drag")
  func scenarioPrints() throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", Self.printingRule)
    let file = try directory.write(
      "drop.scenario.json",
      """
      {"name": "drop", "rules": ["box.lua"],
       "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"at": [1, 1]}, "drop"],
       "expect": {"outcome": "performed"}}
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.status) == [.passed])
    #expect(results.first?.printed.lines == ["rule file loaded", "dropUpdated on a", "performDrop\t1"])
  }

  @Test("a test printing in a loop keeps a bounded part of it and counts the rest")
  func printingInALoop() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "box.lua",
      """
      return { box = { dropUpdated = function() for i = 1, 5000 do print("rule " .. i) end return "move" end } }
      """)
    let file = try directory.write(
      "box_test.lua",
      """
      test("many short lines", function()
        for i = 1, 3000 do print("line " .. i) end
        local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
        sim:drag({ { id = "x" } }):over("a")
      end)
      test("long lines", function()
        local long = string.rep("x", 20000)
        for i = 1, 100 do print(long) end
      end)
      """)
    let results = RuleTestRunner(limits: LuaLimits(maxTime: .seconds(60))).run(files: [file])
    #expect(results.map(\.status) == [.passed, .passed], "\(results.map(\.failures))")
    let short = results[0].printed
    #expect(short.lines.count == PrintedOutput.maximumLines)
    #expect(short.lines.first == "line 1")
    #expect(short.omittedLines == 3000 + 5000 - PrintedOutput.maximumLines)
    #expect(short.omissionNote == "... 7000 more printed lines not shown")
    // The sandbox cut each line to 8 KiB; the bound keeps 64 KiB of them.
    let long = results[1].printed
    #expect(long.lines.allSatisfy { $0.hasSuffix("(11808 more bytes not shown)") })
    #expect(long.lines.reduce(0) { $0 + $1.utf8.count } <= PrintedOutput.maximumBytes)
    #expect(long.lines.count + long.omittedLines == 100)
    #expect(long.omittedLines > 90)
  }

  @Test("a test printing without end is stopped by its memory cap, and its report stays small")
  func printingWithoutEnd() throws {
    let directory = try TemporaryDirectory()
    let file = try directory.write(
      "box_test.lua",
      """
      test("empty lines forever", function() while true do print() end end)
      test("next", function() print("still runs") end)
      """)
    // The instruction budget (100 times this for test code) outlasts the memory cap.
    let limits = LuaLimits(maxInstructions: 1_000_000, maxMemory: 4 << 20, maxTime: .seconds(60))
    let results = RuleTestRunner(limits: limits).run(files: [file])
    #expect(results.map(\.status) == [.failed, .passed])
    #expect(results[0].failures.first?.contains("memory limit of 4194304 bytes exceeded") == true)
    #expect(results[0].printed.lines.count == PrintedOutput.maximumLines)
    #expect(results[0].printed.omittedLines > 0)
    #expect(results[1].printed.lines == ["still runs"])
  }

  @Test("the bound: once a line is left out, later ones are too, so what is kept is a prefix")
  func boundKeepsAPrefix() {
    var output = PrintedOutput()
    output.append(String(repeating: "a", count: PrintedOutput.maximumBytes - 1))
    output.append("bc")
    output.append("d")
    #expect(output.lines.count == 1)
    #expect(output.omittedLines == 2)
    #expect(output.omissionNote == "... 2 more printed lines not shown")
    var one = PrintedOutput(["x"])
    #expect(one.omissionNote == nil)
    one.append(contentsOf: Array(repeating: "y", count: PrintedOutput.maximumLines))
    #expect(one.omissionNote == "... 1 more printed line not shown")
    #expect(PrintedOutput().isEmpty)
  }
}
