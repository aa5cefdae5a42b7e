import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesTesting

/// `property(name, check)` in a test file: checked after every performed drop of every
/// test, on a plain copy of the committed board.
@Suite("Properties in test files")
struct PropertyTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func run(_ tests: String) throws -> [TestCaseResult] {
    try directory.write(
      "box.lua",
      """
      return { box = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, box) box:insert(info.items) return true end,
      } }
      """)
    let file = try directory.write(
      "box_test.lua",
      """
      local function sim()
        return scenario { board = { targets = {
          { id = "a", type = "box", frame = { 0, 0, 100, 100 }, items = { { id = "x" }, { id = "y" } } },
          { id = "b", type = "box", frame = { 100, 0, 100, 100 }, items = { { id = "z" } } },
        } } }
      end
      property("a box holds at most two items", function(board)
        for id, box in pairs(board.targets) do
          if #box.items > 2 then return false, id .. " holds " .. #box.items end
        end
      end)
      property("the snapshot is a copy", function(board)
        board.targets.a.items = {}
        board.items.x = nil
        return true
      end)
      \(tests)
      """)
    return RuleTestRunner().run(files: [file])
  }

  @Test("a drop that breaks a property fails its test at the drop's line; one that keeps it passes")
  func checkedAfterDrops() throws {
    let results = try run(
      """
      test("two into b breaks it", function()
        local s = sim()
        local drag = s:drag({ "x", "y" })
        drag:over("b")
        drag:drop()
      end)
      test("one into b keeps it", function()
        local s = sim()
        local drag = s:drag({ "x" })
        drag:over("b")
        expect(drag:drop()):toBe("performed")
        expect(s:items("b")):toEqual({ "z", "x" })
        expect(s:item("x").container):toBe("b")
      end)
      """)
    #expect(results.map(\.status) == [.failed, .passed], "\(results.map(\.failures))")
    let failure = try #require(results.first?.failures.first)
    #expect(
      failure.contains(":21: property 'a box holds at most two items' does not hold after the drop: b holds 3"),
      "\(failure)")
  }

  @Test("a property that drags and drops in a scenario of its own is not checked again inside itself")
  func dropsInsideAProperty() throws {
    let results = try run(
      """
      property("drops in a scenario of its own", function(board)
        local s = sim()
        local drag = s:drag({ "x" })
        drag:over("b")
        return drag:drop() == "performed"
      end)
      test("a drop", function()
        local s = sim()
        local drag = s:drag({ "x" })
        drag:over("b")
        expect(drag:drop()):toBe("performed")
      end)
      """)
    #expect(results.map(\.status) == [.passed], "\(results.map(\.failures))")
  }

  @Test("property refuses what is not a name and a function")
  func misuse() throws {
    let results = try run(
      """
      property("x")
      test("never runs", function() end)
      """)
    #expect(results.first?.status == .loadError)
    #expect(results.first?.failures.first?.contains("property expects a name and a function of the board") == true)
    let inATest = try run(
      """
      test("declares a property too late", function() property("x", function() return true end) end)
      """)
    #expect(
      inATest.first?.failures.first?.contains(
        "box_test.lua:17: property registers only while the file loads (at its top level or in a describe), not in a test"
      )
        == true, "\(inATest.map(\.failures))")
  }
}
