import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// Red team: droprules fuzz loads test files for their properties; files that also
/// register tests, groups and hooks must give it their properties and nothing else.
@Suite("Red team: droprules fuzz with property files that register tests and hooks")
struct FuzzTestFileHooksAttackTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func fuzz(_ source: String) throws -> Fuzzer.Report {
    try directory.write("box.lua", FuzzRobustnessTests.box)
    let scenario = try directory.write("s.scenario.json", FuzzPropertyInputTests.scenario)
    let test = try directory.write("box_test.lua", source)
    let fuzzer = try Fuzzer(
      scenario: try ScenarioDecoder.load(path: scenario), runner: ScenarioRunner(), extraRules: [], testFiles: [test])
    var options = Fuzzer.Options()
    options.drags = 100
    options.seed = 1
    options.outputDirectory = directory.path + "/out"
    return try fuzzer.run(options)
  }

  @Test("a property in a describe, beside tests and hooks that would fail or spin, holds and finds nothing")
  func hooksAreNotRun() throws {
    let report = try fuzz(
      #"""
      setup(function() while true do end end)
      before_each(function() error("before_each ran in fuzz") end)
      describe("g", function()
        teardown(function() error("teardown ran in fuzz") end)
        property("at most a thousand items", function(board)
          local n = 0
          for _, target in pairs(board.targets) do n = n + #target.items end
          return n <= 1000
        end)
        it("fails", function() error("a test ran in fuzz") end)
      end)
      """#)
    #expect(report.finding == nil, "\(String(describing: report.finding?.failure))")
  }

  @Test("fuzz runs no setup: a property that reads what one prepares fails naming itself, its line and why")
  func propertyNeedsSetup() throws {
    let report = try fuzz(
      #"""
      local most
      setup(function() most = 1000 end)
      property("at most `most` items", function(board)
        local n = 0
        for _, target in pairs(board.targets) do n = n + #target.items end
        return n <= most
      end)
      it("holds", function() expect(most):toBe(1000) end)
      """#)
    let failure = String(describing: report.finding?.failure)
    #expect(failure.contains("at most `most` items: "), "\(failure)")
    #expect(failure.contains("attempt to compare"), "\(failure)")
    #expect(failure.contains("box_test.lua:"), "\(failure)")
  }
}
