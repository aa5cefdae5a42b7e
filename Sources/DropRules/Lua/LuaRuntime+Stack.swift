import CLua

extension LuaRuntime {
  /// Tables nested deeper than this are passed as references instead of copied.
  private static let maximumCopyDepth = 32

  static func string(at index: Int32, on thread: OpaquePointer) -> String {
    var length = 0
    guard let pointer = clua_tostring(thread, index, &length) else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }

  static func push(_ value: LuaValue, on thread: OpaquePointer) {
    switch value {
    case .nil: lua_pushnil(thread)
    case .boolean(let flag): lua_pushboolean(thread, flag ? 1 : 0)
    case .integer(let number): lua_pushinteger(thread, lua_Integer(number))
    case .number(let number): lua_pushnumber(thread, number)
    case .string(let text):
      var text = text
      text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(thread, $0.baseAddress, $0.count) }
      }
    case .table(let table):
      _ = lua_checkstack(thread, 4)
      lua_createtable(thread, Int32(clamping: table.sequence.count), Int32(clamping: table.fields.count))
      for (offset, element) in table.sequence.enumerated() {
        push(element, on: thread)
        lua_rawseti(thread, -2, lua_Integer(offset + 1))
      }
      for (key, element) in table.fields {
        push(.string(key), on: thread)
        push(element, on: thread)
        lua_rawset(thread, -3)
      }
    case .function(let reference), .reference(let reference):
      lua_rawgeti(thread, clua_registryindex(), lua_Integer(reference.id))
    }
  }

  static func read(
    at index: Int32, on thread: OpaquePointer, runtime: LuaRuntime, depth: Int = 0
  ) -> LuaValue {
    switch lua_type(thread, index) {
    case LUA_TBOOLEAN:
      return .boolean(lua_toboolean(thread, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(thread, index) != 0 { return .integer(Int64(lua_tointegerx(thread, index, nil))) }
      return .number(lua_tonumberx(thread, index, nil))
    case LUA_TSTRING:
      return .string(string(at: index, on: thread))
    case LUA_TFUNCTION:
      return .function(reference(to: index, on: thread, runtime: runtime))
    case LUA_TTABLE:
      if depth >= maximumCopyDepth || lua_getmetatable(thread, index) != 0 {
        if depth < maximumCopyDepth { clua_pop(thread, 1) }
        return .reference(reference(to: index, on: thread, runtime: runtime))
      }
      return .table(readTable(at: index, on: thread, runtime: runtime, depth: depth))
    case LUA_TNIL, LUA_TNONE:
      return .nil
    default:
      return .reference(reference(to: index, on: thread, runtime: runtime))
    }
  }

  private static func readTable(
    at index: Int32, on thread: OpaquePointer, runtime: LuaRuntime, depth: Int
  ) -> LuaTable {
    let table = lua_absindex(thread, index)
    _ = lua_checkstack(thread, 4)
    var result = LuaTable()
    let length = lua_rawlen(thread, table)
    if length > 0 {
      result.sequence.reserveCapacity(Int(length))
      for position in 1...length {
        lua_rawgeti(thread, table, lua_Integer(position))
        result.sequence.append(read(at: -1, on: thread, runtime: runtime, depth: depth + 1))
        clua_pop(thread, 1)
      }
    }
    lua_pushnil(thread)
    while lua_next(thread, table) != 0 {
      if lua_type(thread, -2) == LUA_TSTRING {
        result.fields[string(at: -2, on: thread)] = read(at: -1, on: thread, runtime: runtime, depth: depth + 1)
      } else if lua_isinteger(thread, -2) == 0 || length == 0
        || !(1...Int64(length)).contains(Int64(lua_tointegerx(thread, -2, nil)))
      {
        result.otherKeyCount += 1
      }
      clua_pop(thread, 1)
    }
    return result
  }

  static func reference(to index: Int32, on thread: OpaquePointer, runtime: LuaRuntime) -> LuaReference {
    lua_pushvalue(thread, index)
    return LuaReference(id: luaL_ref(thread, clua_registryindex()), runtime: runtime)
  }
}

extension LuaRuntime {
  /// A short description of a value for diagnostics, read without metamethods and
  /// without copying tables.
  static func describe(at index: Int32, on thread: OpaquePointer) -> String {
    switch lua_type(thread, index) {
    case LUA_TNIL, LUA_TNONE: return "nil"
    case LUA_TBOOLEAN: return lua_toboolean(thread, index) != 0 ? "true" : "false"
    case LUA_TNUMBER:
      if lua_isinteger(thread, index) != 0 { return String(lua_tointegerx(thread, index, nil)) }
      return formatNumber(lua_tonumberx(thread, index, nil))
    case LUA_TSTRING:
      let text = string(at: index, on: thread)
      return "\"" + (text.count > 60 ? String(text.prefix(60)) + "..." : text) + "\""
    default:
      return "a " + String(cString: lua_typename(thread, lua_type(thread, index))) + " value"
    }
  }
}
