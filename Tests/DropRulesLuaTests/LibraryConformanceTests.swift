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

  @Test("the bounded twins take NaN, infinities and the extreme integers as Lua's functions do")
  func extremeArguments() throws {
    try expectSameAsLua(
      """
      local maxI, minI, nan, inf = math.maxinteger, math.mininteger, 0 / 0, math.huge
      local s, t = "aé", { 1, 2, 3 }
      for _, call in ipairs({
        function() return utf8.len(s, minI, maxI) end, function() return utf8.len(s, maxI) end,
        function() return utf8.len(s, minI) end, function() return utf8.len(s, 1, minI) end,
        function() return utf8.len(s, nan) end, function() return utf8.len(s, inf) end,
        function() return utf8.codepoint(s, minI, maxI) end, function() return utf8.codepoint(s, -1) end,
        function() return utf8.codepoint(s, 1, nan) end,
        function() return table.insert({}, maxI, 1) end, function() return table.insert({}, minI, 1) end,
        function() return table.insert({}, nan, 1) end, function() return table.remove({}, minI) end,
        function() return table.remove(t, maxI) end, function() return table.concat(t, ",", minI, maxI) end,
        function() return table.concat(t, ",", 3, 1) end, function() return table.unpack({}, minI, maxI) end,
        function() return table.unpack(t, maxI, minI) end, function() return table.move(t, minI, maxI, 1) end,
        function() return table.move(t, 1, 3, maxI) end, function() return table.move(t, nan, 2, 1) end,
        function() return ("x"):rep(maxI) end, function() return ("x"):rep(2, ("y"):rep(100), 3) end,
        function() return ("x"):rep(nan) end, function() return ("x"):rep(minI) end,
        function() return table.sort({ 3, nan, 1 }) end,
      }) do
        note(pcall(call))
      end
      """)
  }
}
