import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesTesting

/// Tests tell the truth: a rule error or an expectation without a matcher fails a test,
/// and a test can check more than the proposal.
@Suite("Rule tests tell the truth")
struct TruthfulTestTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// The box forbids a shift drag by crashing: its dropUpdated raises, so the host
  /// proposes forbidden.
  static let crashingBox = """
    return { box = {
      dropUpdated = function(info)
        if info.modifiers.shift then error("shift is not handled") end
        return "move"
      end,
      performDrop = function(info, box) box:insert(info.items) return true end,
    } }
    """

  static let boxBoard = """
    local function sim()
      return scenario { board = { targets = {
        { id = "a", type = "box", frame = { 0, 0, 100, 100 }, items = { { id = "x" } } },
        { id = "b", type = "box", frame = { 100, 0, 100, 100 } },
      } } }
    end
    """

  func run(_ tests: String, rules: String = crashingBox) throws -> [TestCaseResult] {
    try directory.write("box.lua", rules)
    let file = try directory.write("box_test.lua", Self.boxBoard + "\n" + tests)
    return RuleTestRunner().run(files: [file])
  }

  @Test("a handler that crashed cannot pass a test that expected forbidden; the error is shown under the test")
  func untakenErrorFails() throws {
    let results = try run(
      """
      test("shift forbids", function()
        local drag = sim():drag({ "x" }, { modifiers = { "shift" } })
        expect(drag:over("b")):toBe("forbidden")
      end)
      test("shift forbids, and the test takes the error", function()
        local s = sim()
        local drag = s:drag({ "x" }, { modifiers = { "shift" } })
        expect(drag:over("b")):toBe("forbidden")
        local errors = s:takeErrors()
        expect(#errors):toBe(1)
        expect(errors[1].message):toContain("shift is not handled")
        expect(#s.errors):toBe(0)
      end)
      """)
    #expect(results.map(\.status) == [.failed, .passed], "\(results.map(\.failures))")
    let failure = try #require(results.first?.failures.first)
    let rules = directory.url.appendingPathComponent("box.lua").path
    #expect(
      failure
        == "\(rules):3: shift is not handled (in dropUpdated of b, step 1); a rule error the test did not take with "
        + "sim:takeErrors()")
    for report in [
      TestReport.text(results), TestReport.tap(results), TestReport.junit(results), TestReport.json(results),
    ] {
      #expect(report.contains("shift is not handled"), "\(report)")
      #expect(report.contains("box.lua:3") || report.contains(#""line": 3"#))
    }
    // The JSON report locates it as it locates any failure.
    let json = TestReport.json(results)
    #expect(json.contains(#""file": "\#(rules)""#) && json.contains(#""line": 3"#), "\(json)")
  }

  @Test("expect without a matcher fails at its own line, negated or not; a failing test is not blamed twice")
  func expectWithoutMatcher() throws {
    let results = try run(
      """
      test("forgets the matcher", function()
        expect(sim():drag({ "x" }):over("b"))
      end)
      test("forgets it after .no", function()
        local unused = expect(1).no
      end)
      test("fails first", function()
        expect(1)
        expect(1):toBe(2)
      end)
      """)
    #expect(results.map(\.status) == [.failed, .failed, .failed])
    let file = directory.url.appendingPathComponent("box_test.lua").path
    #expect(
      results[0].failures == [
        "\(file):8: expect(...) has no matcher, so it checks nothing; call one, as in expect(x):toBe(y)"
      ])
    #expect(results[1].failures.first?.hasPrefix("\(file):11: expect(...) has no matcher") == true)
    #expect(results[2].failures == ["\(file):15: expected 2, got 1"])
  }

  @Test("drag.lastStep is the last step as the JSON trace has it")
  func lastStep() throws {
    let results = try run(
      """
      test("reads the step", function()
        local drag = sim():drag({ "x" }, { allowedOperations = { "copy" } })
        expect(drag.lastStep.action.kind):toBe("begin")
        expect(drag.lastStep.number):toBe(0)
        expect(drag:over("b")):toBe("copy")
        local step = drag.lastStep
        expect(step.proposal):toBe("copy")
        expect(step.target):toBe("b")
        expect(step.downgrade.from):toBe("move")
        expect(step.downgrade.to):toBe("copy")
        expect(step.calls[1].handler):toBe("dropUpdated")
        expect(step.printed):toEqual({})
        expect(drag:drop()):toBe("performed")
        expect(drag.lastStep.outcome):toBe("performed")
      end)
      test("a replaced drag's lastStep raises", function()
        local s = sim()
        local first = s:drag({ "x" })
        s:drag({ "x" })
        expect(function() return first.lastStep end):toRaise("this drag is over")
      end)
      """,
      rules: Self.crashingBox.replacingOccurrences(
        of: "performDrop = function(info, box) box:insert(info.items)",
        with: "performDrop = function(info, box) box:insert(info.items[1]:copy())"))
    #expect(results.map(\.status) == [.passed, .passed], "\(results.map(\.failures))")
  }

  @Test("describe nests, hooks run outer to inner and back, after_each runs after a failure, pending never runs")
  func bustedShape() throws {
    let results = try run(
      """
      local log
      before_each(function() log = { "file before" } end)
      describe("outer", function()
        before_each(function() log[#log + 1] = "outer before" end)
        after_each(function() log[#log + 1] = "outer after" print(table.concat(log, ", ")) end)
        describe("inner", function()
          before_each(function() log[#log + 1] = "inner before" end)
          after_each(function() log[#log + 1] = "inner after" end)
          it("runs", function() log[#log + 1] = "body" end)
          it("fails", function() log[#log + 1] = "body" error("on purpose") end)
        end)
        pending("to write later", function() error("never runs") end)
      end)
      pending("a bare pending")
      test("after every group", function() expect(log):toEqual({ "file before" }) end)
      """)
    #expect(
      results.map(\.name) == [
        "outer inner runs", "outer inner fails", "outer to write later", "a bare pending", "after every group",
      ])
    #expect(results.map(\.status) == [.passed, .failed, .pending, .pending, .passed], "\(results.map(\.failures))")
    let order = "file before, outer before, inner before, body, inner after, outer after"
    #expect(results[0].printed.lines == [order])
    #expect(results[1].printed.lines == [order], "after_each ran after the failure")
    #expect(results[1].failures.first?.hasSuffix("on purpose") == true)
    let text = TestReport.text(results)
    #expect(text.contains("  ...   outer to write later\n"))
    #expect(text.hasSuffix("2 pending\n2 passed, 1 failed"))
    #expect(TestReport.tap(results).contains("ok 3 - \(results[2].file): outer to write later # SKIP pending"))
    #expect(TestReport.junit(results).contains(#"<skipped message="pending"/>"#))
    #expect(TestReport.json(results).contains(#""pending": 2"#))
  }

  @Test("a before_each that raises fails the test without running its body")
  func failingBeforeEach() throws {
    let results = try run(
      """
      describe("group", function()
        before_each(function() error("setup broke") end)
        it("never runs", function() print("body ran") end)
      end)
      """)
    #expect(results.first?.status == .failed)
    #expect(results.first?.failures.first?.hasSuffix("setup broke") == true)
    #expect(results.first?.printed.lines == [])
  }

  @Test("negation, toRaise and spies pass and fail as they say, with messages that say why")
  func matchers() throws {
    let results = try run(
      """
      test("passes", function()
        local s = sim()
        local updated = s:spy("dropUpdated")
        local dropsOnA = s:spy("performDrop", { target = "a" })
        local drag = s:drag({ "x" })
        expect(drag:over("b")).no:toBe("forbidden")
        expect(drag:over("b")):never():toBe("copy")
        expect(updated):toHaveBeenCalledTimes(2)
        expect(updated.calls[1].target):toBe("b")
        expect(updated.calls[1].result):toBe("move")
        expect(drag:drop()):toBe("performed")
        expect(s:spy("performDrop")).no:toHaveBeenCalled()
        expect(dropsOnA).no:toHaveBeenCalled()
        expect(function() error("boom at 42") end):toRaise("boom")
        expect(function() error("boom at 42") end):toRaise("at %d+")
        expect(function() end).no:toRaise()
      end)
      test("negation fails", function() expect(1).no:toBe(1) end)
      test("toRaise fails on a quiet function", function() expect(function() end):toRaise("x") end)
      test("toRaise fails on another message", function() expect(function() error("other") end):toRaise("boom") end)
      test("a spy counts", function()
        local s = sim()
        local drops = s:spy("performDrop")
        s:drag({ "x" }):over("b")
        expect(drops):toHaveBeenCalled()
      end)
      test("spy names a handler", function() sim():spy("performDrops") end)
      """)
    #expect(
      results.map(\.status) == [.passed, .failed, .failed, .failed, .failed, .failed], "\(results.map(\.failures))")
    #expect(results[1].failures.first?.hasSuffix("expected anything but 1, got it") == true)
    #expect(results[2].failures.first?.hasSuffix(#"expected an error matching "x", but the function returned"#) == true)
    #expect(results[3].failures.first?.contains(#"expected an error matching "boom", got "#) == true)
    #expect(results[4].failures.first?.hasSuffix("expected performDrop to have been called, but it was not") == true)
    #expect(
      results[5].failures.first?.hasSuffix("sim:spy: 'performDrops' is no handler; did you mean performDrop?") == true)
  }
}
