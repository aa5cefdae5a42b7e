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
}
