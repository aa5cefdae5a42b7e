import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// `setmetatable`'s errors read as Lua's do: named `setmetatable` and placed at the
/// rule's line (the sandbox's wrapper once let them name its local, `realSetmetatable`,
/// at a line of its own).
@Suite("setmetatable's errors")
struct SetmetatableErrorTests {
  @Test(
    "each of Lua's refusals, called directly and through pcall",
    arguments: [
      ("setmetatable(1, {})", "bad argument #1 to 'setmetatable' (table expected, got number)"),
      ("setmetatable()", "bad argument #1 to 'setmetatable' (table expected, got no value)"),
      ("setmetatable({}, true)", "bad argument #2 to 'setmetatable' (nil or table expected, got boolean)"),
      ("setmetatable({})", "bad argument #2 to 'setmetatable' (nil or table expected, got no value)"),
      (
        "setmetatable(setmetatable({}, { __metatable = false }), {})",
        "cannot change a protected metatable"
      ),
    ])
  func refusals(call: String, message: String) throws {
    let lua = try LuaRuntime()
    let environment = try lua.newEnvironment()
    let direct = try lua.load(
      source: "local ok, message = pcall(function()\n\(call)\nend) return message", chunkName: "=rule",
      environment: environment)
    #expect(try lua.call(direct) == [.string("rule:2: " + message)])
    // Through pcall, as Lua names a C function its caller did not name.
    let arguments = call.dropFirst("setmetatable(".count).dropLast()
    let viaPcall = try lua.load(
      source: "local ok, message = pcall(setmetatable\(arguments.isEmpty ? "" : ", " + arguments)) return message",
      chunkName: "=rule", environment: environment)
    let got = try lua.call(viaPcall).first?.stringValue ?? ""
    #expect(got.hasSuffix(message) && !got.contains("realSetmetatable") && !got.contains("sandbox"), "\(got)")
  }

  @Test("a metatable is still set, cleared and read back")
  func stillWorks() throws {
    let lua = try LuaRuntime()
    let environment = try lua.newEnvironment()
    let chunk = try lua.load(
      source: """
        local t = setmetatable({}, { __index = { x = 1 } })
        local cleared = setmetatable(setmetatable({}, {}), nil)
        return t.x, getmetatable(cleared) == nil, setmetatable(t, nil) == t
        """, chunkName: "=rule", environment: environment)
    #expect(try lua.call(chunk) == [.integer(1), .boolean(true), .boolean(true)])
  }
}
