import CLua

/// A bare Lua 5.4 state with the whole standard library and no sandbox, no limits and no
/// droprules code: what Lua itself computes, for tests to compare the sandbox with, and
/// bytecode that only Lua's own `string.dump` can make.
public final class PlainLua {
  private let state: OpaquePointer

  /// A new state with the standard library open.
  public init() {
    guard let state = luaL_newstate() else { fatalError("Lua could not allocate a state") }
    luaL_openlibs(state)
    self.state = state
  }

  deinit { lua_close(state) }

  /// Runs `source` and returns its results as Lua's `tostring` writes them; strings as
  /// their bytes. Throws the error message if it fails.
  public func run(_ source: String, chunkName: String? = nil) throws -> [[UInt8]] {
    lua_settop(state, 0)
    defer { lua_settop(state, 0) }
    let code = Array(source.utf8)
    let loaded = code.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        luaL_loadbufferx(state, $0.baseAddress, $0.count, chunkName ?? source, nil)
      }
    }
    guard loaded == LUA_OK, lua_pcallk(state, 0, LUA_MULTRET, 0, 0, nil) == LUA_OK else {
      throw PlainLuaError(message: String(decoding: bytes(at: -1), as: UTF8.self))
    }
    return (0..<lua_gettop(state)).map { bytes(at: $0 + 1) }
  }

  /// The bytecode Lua's own `string.dump` makes of `source`.
  public func bytecode(of source: String) throws -> [UInt8] {
    let escaped = source.replacingOccurrences(of: "]]", with: "] ]")
    return try run("return string.dump(load([[\(escaped)]]))").first ?? []
  }

  private func bytes(at index: Int32) -> [UInt8] {
    var length = 0
    guard let text = luaL_tolstring(state, index, &length) else { return [] }
    defer { lua_settop(state, lua_gettop(state) - 1) }
    return text.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
  }
}

/// An error a plain Lua chunk raised.
public struct PlainLuaError: Error, CustomStringConvertible {
  /// The error message, as Lua raised it.
  public var message: String
  /// The message.
  public var description: String { message }
}
