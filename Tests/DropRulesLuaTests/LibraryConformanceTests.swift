import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// Where the sandbox wraps a library function, it answers as Lua 5.4 does: the same
/// values, the same errors, named after the function the rule called, at the rule's line.
/// Each script runs in the sandbox and in a plain Lua state, under the same chunk name.
/// Lua's own test suite is the wider check (Tests/Conformance).
@Suite("Wrapped library functions answer as Lua's")
struct LibraryConformanceTests {
  private func expectSameAsLua(_ body: String) throws {
    let script = """
      local out = {}
      local function note(ok, message)
        local text = type(message) == "table" and "a table" or tostring(message)
        out[#out + 1] = tostring(ok) .. " " .. text:gsub("^[^\\n]-:(%d+): ", "line %1: ")
      end
      \(body)
      return table.concat(out, "\\n")
      """
    let sandboxed = try LuaRuntime().evaluateFirst(script).stringValue ?? ""
    let own = String(decoding: try #require(try PlainLua().run(script, chunkName: "=test").first), as: UTF8.self)
    #expect(sandboxed == own)
  }

  @Test("next's argument errors name next, at the caller's line")
  func nextErrors() throws {
    try expectSameAsLua(
      """
      note(pcall(next))
      note(pcall(next, nil))
      note(pcall(function() return next(nil) end))
      note(pcall(function() next() end))
      note(pcall(function() next(42, 1) end))
      note(pcall(next, {}, "absent"))
      """)
  }

  @Test("coroutine.wrap: its argument error, a coroutine resuming itself, close errors, dead coroutines")
  func wrapAsLua() throws {
    try expectSameAsLua(
      """
      note(pcall(coroutine.wrap, 42))
      note(pcall(function() coroutine.wrap(42) end))
      local A
      A = coroutine.wrap(function() return pcall(A, 1) end)
      note(A())
      local B = coroutine.wrap(function()
        local guard <close> = setmetatable({}, { __close = function() error("in close", 0) end })
        error("in body", 0)
      end)
      note(pcall(B))
      local C = coroutine.wrap(function() end)
      C()
      note(pcall(C))
      note(pcall(function() C() end))
      local D = coroutine.wrap(function() error("boom") end)
      note(pcall(function() return D() end))
      local E = coroutine.wrap(function() error({}) end)
      note(pcall(E))
      """)
  }
}
