import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// A coroutine the count hook stops dies inside the hook, where Lua turns hooks off for
/// that thread for good: its `__close` handlers must never run, or they run with no limit
/// (the red team's pass over issue 20 hung the host this way, through `coroutine.wrap` and
/// through `coroutine.close`). Each loop here is bounded, so the test ends on old code too.
@Suite("Coroutines stopped by a limit")
struct StoppedCoroutineTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A coroutine with a to-be-closed variable whose `__close` spins, which then fills
  /// memory into the cap's reserve, where the count hook raises the cap's error.
  static func rule(closing: String) -> String {
    """
    local spins = 0
    local function body()
      local guard <close> = setmetatable({}, { __close = function()
        while spins < 5e7 do spins = spins + 1 end
      end })
      local keep = {}
      for i = 1, 2000 do keep[i] = string.rep("x", 256 * 1024) end
    end
    return { box = {
      dropUpdated = function()
        \(closing)
        return "move"
      end,
      performDrop = function() return true end,
    } }
    """
  }

  func run(_ source: String) throws -> RuleHost {
    let host = try makeHost(
      rules: source, targets: row(["a"]), items: [], directory: directory,
      limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 8 << 20, maxTime: .zero))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], allowedOperations: [.copy, .move]))
    try host.moveOver("a")
    try host.cancel()
    return host
  }

  @Test("through coroutine.wrap: the error reaches the caller, and the __close never runs")
  func wrap() throws {
    let host = try run(
      Self.rule(
        closing: """
          local ok, message = pcall(coroutine.wrap(body))
          print(ok, tostring(message):match("memory limit of %d+ bytes exceeded") ~= nil, spins)
          """))
    #expect(host.printedLines == ["false\ttrue\t0"], "\(host.printedLines) \(host.diagnostics.map(\.message))")
  }

  @Test("through coroutine.close: close says why, and the __close never runs")
  func close() throws {
    let host = try run(
      Self.rule(
        closing: """
          local co = coroutine.create(body)
          local ok = coroutine.resume(co)
          print(ok, coroutine.status(co), coroutine.close(co))
          print(spins)
          """))
    #expect(
      host.printedLines == [
        "false\tdead\tfalse\tthe coroutine was stopped by a limit: its to-be-closed variables are not closed", "0",
      ], "\(host.printedLines) \(host.diagnostics.map(\.message))")
  }

  @Test("a coroutine that raised its own error is closed as Lua closes it: its __close runs")
  func ordinaryErrorsStillClose() throws {
    let host = try run(
      """
      return { box = {
        dropUpdated = function()
          local closed = false
          local co = coroutine.create(function()
            local guard <close> = setmetatable({}, { __close = function() closed = true end })
            error("mine", 0)
          end)
          print(coroutine.resume(co))
          print(coroutine.close(co), closed)
          local wrapped = coroutine.wrap(function()
            local guard <close> = setmetatable({}, { __close = function() closed = "again" end })
            error("wrapped", 0)
          end)
          print(pcall(wrapped), closed)
          print(coroutine.close(coroutine.create(print)))
          return "move"
        end,
        performDrop = function() return true end,
      } }
      """)
    // What Lua 5.4.4 itself prints for this code.
    #expect(host.printedLines == ["false\tmine", "false\ttrue", "false\tagain", "true"], "\(host.printedLines)")
  }

  @Test("after a rule caught the cap's error, a coroutine that fails on its own is closed as Lua closes it")
  func caughtLimitThenOrdinaryError() throws {
    let host = try run(
      """
      return { box = {
        dropUpdated = function()
          print(pcall(function() local t = {} while true do t[#t + 1] = string.rep("x", 4096) end end))
          local closed = false
          local co = coroutine.create(function()
            local guard <close> = setmetatable({}, { __close = function() closed = true end })
            error("plain", 0)
          end)
          print(coroutine.resume(co))
          print(coroutine.close(co), closed)
          return "move"
        end,
        performDrop = function() return true end,
      } }
      """)
    #expect(host.printedLines.count == 3, "\(host.printedLines) \(host.diagnostics.map(\.message))")
    #expect(host.printedLines.dropFirst().first == "false\tplain")
    // As Lua 5.4.4 prints it: the __close ran.
    #expect(host.printedLines.last == "false\ttrue")
  }
}
