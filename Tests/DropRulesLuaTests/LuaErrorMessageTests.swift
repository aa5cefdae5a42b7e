import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// Lua strings may hold any byte; an error message must reach the report whole.
@Suite("Error messages survive the way out of Lua")
struct LuaErrorMessageTests {
  @Test("a NUL in an error message does not cut it short, with or without a position")
  func nulInMessage() throws {
    let lua = try LuaRuntime()
    let positioned = #expect(throws: LuaError.self) { try lua.evaluate(#"error("before\0after")"#) }
    #expect(positioned?.message == "before\0after")
    #expect(positioned?.line == 1)
    #expect(positioned?.traceback.hasPrefix("stack traceback:") == true)
    let bare = #expect(throws: LuaError.self) { try lua.evaluate(#"error("before\0after", 0)"#) }
    #expect(bare?.message == "before\0after")
  }

  @Test("an error object's __tostring text keeps its NUL")
  func nulInErrorObject() throws {
    let lua = try LuaRuntime()
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate(#"error(setmetatable({}, { __tostring = function() return "x\0y" end }))"#)
    }
    #expect(error?.message == "x\0y")
  }

  @Test("a host function's error keeps its NUL")
  func nulInHostError() throws {
    let lua = try LuaRuntime()
    let fail = lua.function { _ in throw LuaHostError("no target 'a\0b'") }
    let error = #expect(throws: LuaError.self) { try lua.evaluate("fail()", globals: ["fail": fail]) }
    #expect(error?.message == "no target 'a\0b'")
  }
}
