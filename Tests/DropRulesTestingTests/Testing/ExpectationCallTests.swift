import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// A matcher called with a dot instead of a colon says how to call it, at the test's line.
@Suite("expect(x).toBe(y) with a dot")
struct ExpectationCallTests {
  @Test(
    "each matcher called with a dot names the colon form and the test file's line; with a colon it still checks",
    arguments: ["toBe(1)", "toEqual({})", "toBeNil()", "toBeTruthy()", "toBeFalsy()", "toContain(1)"])
  func dotCall(matcher: String) throws {
    let name = String(matcher.prefix { $0 != "(" })
    let directory = try TemporaryDirectory()
    let file = try directory.write(
      "dot_test.lua",
      """
      test("dot", function()
        expect(1).\(matcher)
      end)
      test("colon", function() expect(1):toBe(2) end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.status) == [.failed, .failed])
    #expect(
      results.first?.failures
        == ["\(file):2: call \(name) with a colon: expect(value):\(name)(...), not expect(value).\(name)"])
    #expect(results.last?.failures == ["\(file):4: expected 2, got 1"])
  }

  @Test("toEqual and luassert's same compare tables that contain themselves, and end")
  func cyclicTables() throws {
    let directory = try TemporaryDirectory()
    let file = try directory.write(
      "cycle_test.lua",
      """
      local function ring(value) local t = { value = value }; t.self = t; return t end
      test("equal rings", function()
        expect(ring(1)):toEqual(ring(1))
        assert.are.same(ring(1), ring(1))
      end)
      test("different rings", function() expect(ring(1)):toEqual(ring(2)) end)
      test("different rings, luassert", function() assert.are.same(ring(1), ring(2)) end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.status) == [.passed, .failed, .failed], "\(results.map(\.failures))")
  }
}
