import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// A budget fails a call at the instruction that passes it, on every run: replays, tests
/// and `fuzz` repeat only if the clock never chooses where the budget is checked.
@Suite("Exact budgets")
struct ExactBudgetTests {
  /// The smallest budget under which `source` runs to its end.
  private func smallestBudget(_ source: String) throws -> Int {
    var failing = 0
    var passing = 200_000
    while passing - failing > 1 {
      let budget = (failing + passing) / 2
      let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: budget, maxTime: .seconds(10)))
      do {
        _ = try lua.evaluate(source)
        passing = budget
      } catch {
        guard error.kind == .instructionLimit(budget) else { throw error }
        failing = budget
      }
    }
    return passing
  }

  /// A loop of `turns` turns, each comparing two long strings when `long`: a comparison
  /// of distinct megabyte strings is one instruction that takes tens of microseconds,
  /// which once made the hook check the budget every 8 instructions instead of 1,000.
  private func loop(turns: Int, long: Bool) -> String {
    let length = long ? 1 << 20 : 1
    return """
      local a, b = string.rep("x", \(length)), string.rep("x", \(length - 1)) .. "x"
      local same = 0
      for _ = 1, \(turns) do if a == b then same = same + 1 end end
      return same
      """
  }

  @Test("one more turn of a loop needs exactly its instructions more, fast or slow")
  func oneMoreTurn() throws {
    let fast = try smallestBudget(loop(turns: 1_500, long: false))
    let perTurn = try smallestBudget(loop(turns: 1_501, long: false)) - fast
    #expect(perTurn > 0 && perTurn < 10)
    #expect(try smallestBudget(loop(turns: 1_502, long: false)) == fast + 2 * perTurn)
    let slow = try smallestBudget(loop(turns: 300, long: true))
    #expect(try smallestBudget(loop(turns: 301, long: true)) == slow + perTurn)
  }

  @Test("a call one instruction over its budget fails on every run")
  func sameOnEveryRun() throws {
    let source = loop(turns: 300, long: true)
    let budget = try smallestBudget(source)
    for _ in 0..<5 {
      let under = try LuaRuntime(limits: LuaLimits(maxInstructions: budget - 1, maxTime: .seconds(10)))
      #expect(throws: LuaError.self) { try under.evaluate(source) }
      let enough = try LuaRuntime(limits: LuaLimits(maxInstructions: budget, maxTime: .seconds(10)))
      #expect(try enough.evaluateFirst(source) == .integer(300))
    }
  }
}
