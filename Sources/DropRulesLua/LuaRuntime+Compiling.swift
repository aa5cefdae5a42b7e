import CLua
import CLuaHost
import Foundation

/// Compiling text chunks, each text once per process.
extension LuaRuntime {
  /// Compiles `source` (text only) and pushes the function, or pushes the error message;
  /// returns Lua's status.
  ///
  /// A text this process compiled before under the same chunk name is loaded from the
  /// bytecode its first compile left in ``CompiledChunkCache``: parsing is most of what a
  /// new rule host (every `scenario{}` of a test is one) costs.
  static func compile(_ source: [UInt8], chunkName: String, on state: OpaquePointer) -> Int32 {
    let cache = CompiledChunkCache.shared
    if let bytecode = cache.bytecode(chunkName: chunkName, source: source) {
      let status = load(bytecode, chunkName: chunkName, on: state, loader: clua_load_own_bytecode)
      if status == LUA_OK || status == LUA_ERRMEM { return status }
      // Never expected: compile the text as if the cache were empty.
      clua_pop(state, 1)
    }
    let status = load(source, chunkName: chunkName, on: state, loader: clua_loadtext)
    guard status == LUA_OK else { return status }
    if let bytecode = Self.dumpTop(of: state) {
      cache.store(chunkName: chunkName, source: source, bytecode: bytecode)
    }
    return status
  }

  /// What `lua_dump` writes for the function on top of the stack, which stays there.
  private static func dumpTop(of state: OpaquePointer) -> [UInt8]? {
    var length = 0
    guard let dumped = clua_dump(state, &length) else { return nil }
    defer { free(dumped) }
    return dumped.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
  }

  private static func load(
    _ bytes: [UInt8], chunkName: String, on state: OpaquePointer,
    loader: (OpaquePointer, UnsafePointer<CChar>, Int, UnsafePointer<CChar>) -> Int32
  ) -> Int32 {
    bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { chars in
        // An empty chunk has no buffer, but Lua still needs a valid pointer.
        guard let start = chars.baseAddress else { return loader(state, "", 0, chunkName) }
        return loader(state, start, chars.count, chunkName)
      }
    }
  }
}
