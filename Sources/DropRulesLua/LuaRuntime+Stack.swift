import CLua
import CLuaHost

extension LuaRuntime {
  static func string(at index: Int32, on thread: OpaquePointer) -> String {
    var length = 0
    guard let pointer = clua_tostring(thread, index, &length) else { return "" }
    return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }

  /// The state's push plan, emptied, for values C pushes onto `thread` next. The
  /// references the last plan named are let go: it was pushed.
  func startPlan(on thread: OpaquePointer) -> UnsafeMutablePointer<clua_PushPlan> {
    plannedReferences.removeAll(keepingCapacity: true)
    return clua_plan(thread)
  }

  /// Adds `value` to a push plan: C pushes it later, so that an allocation the push
  /// makes is raised by Lua from C, never across a Swift frame. The references it names
  /// are kept until then.
  func plan(_ value: LuaValue, into plan: UnsafeMutablePointer<clua_PushPlan>) {
    switch value {
    case .nil: clua_plan_nil(plan)
    case .boolean(let flag): clua_plan_boolean(plan, flag ? 1 : 0)
    case .integer(let number): clua_plan_integer(plan, number)
    case .number(let number): clua_plan_number(plan, number)
    case .string(let text):
      var text = text
      text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { clua_plan_string(plan, $0.baseAddress, $0.count) }
      }
    case .table(let table):
      clua_plan_table(plan, Int32(clamping: table.sequence.count), Int32(clamping: table.fields.count))
      for (offset, element) in table.sequence.enumerated() {
        self.plan(element, into: plan)
        clua_plan_set_index(plan, Int64(offset + 1))
      }
      for (key, element) in table.fields {
        self.plan(.string(key), into: plan)
        self.plan(element, into: plan)
        clua_plan_set_field(plan)
      }
    case .function(let reference), .reference(let reference):
      plannedReferences.append(reference)
      clua_plan_reference(plan, reference.id)
    }
  }

  /// Copies the value at `index` into Swift, within `budget`: every table entry and
  /// string byte is counted as it is copied (a table reached twice is counted twice),
  /// so no value can grow without bound on its way out of Lua; a table that contains
  /// itself, or one nested past ``LuaCopyBudget/maximumDepth``, is refused.
  static func read(
    at index: Int32, on thread: OpaquePointer, runtime: LuaRuntime, budget: inout LuaCopyBudget, depth: Int = 0
  ) throws(LuaCopyError) -> LuaValue {
    switch lua_type(thread, index) {
    case LUA_TBOOLEAN:
      return .boolean(lua_toboolean(thread, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(thread, index) != 0 { return .integer(Int64(lua_tointegerx(thread, index, nil))) }
      return .number(lua_tonumberx(thread, index, nil))
    case LUA_TSTRING:
      var length = 0
      _ = clua_tostring(thread, index, &length)
      try budget.spend(entries: 1, bytes: length)
      return .string(string(at: index, on: thread))
    case LUA_TFUNCTION:
      return .function(reference(to: index, on: thread, runtime: runtime))
    case LUA_TTABLE:
      if lua_getmetatable(thread, index) != 0 {
        clua_pop(thread, 1)
        return .reference(reference(to: index, on: thread, runtime: runtime))
      }
      guard depth < LuaCopyBudget.maximumDepth else { throw .tooDeep }
      let identity = lua_topointer(thread, index)
      guard !budget.path.contains(identity) else { throw .cycle }
      budget.path.append(identity)
      defer { budget.path.removeLast() }
      return .table(try readTable(at: index, on: thread, runtime: runtime, budget: &budget, depth: depth))
    case LUA_TNIL, LUA_TNONE:
      return .nil
    default:
      return .reference(reference(to: index, on: thread, runtime: runtime))
    }
  }

  /// Copies a value that the host made itself, or one already bounded, without limits.
  static func read(at index: Int32, on thread: OpaquePointer, runtime: LuaRuntime) throws(LuaCopyError) -> LuaValue {
    var budget = LuaCopyBudget.unlimited
    return try read(at: index, on: thread, runtime: runtime, budget: &budget)
  }

  private static func readTable(
    at index: Int32, on thread: OpaquePointer, runtime: LuaRuntime, budget: inout LuaCopyBudget, depth: Int
  ) throws(LuaCopyError) -> LuaTable {
    let table = lua_absindex(thread, index)
    guard lua_checkstack(thread, 4) != 0 else { throw .tooDeep }
    var result = LuaTable()
    let length = lua_rawlen(thread, table)
    try budget.spend(entries: 1, bytes: 0)
    if length > 0 {
      try budget.spend(entries: Int(clamping: length), bytes: 0)
      result.sequence.reserveCapacity(Int(length))
      for position in 1...length {
        lua_rawgeti(thread, table, lua_Integer(position))
        defer { clua_pop(thread, 1) }
        result.sequence.append(try read(at: -1, on: thread, runtime: runtime, budget: &budget, depth: depth + 1))
      }
    }
    lua_pushnil(thread)
    while lua_next(thread, table) != 0 {
      defer { clua_pop(thread, 1) }
      if lua_type(thread, -2) == LUA_TSTRING {
        // On a throw the key stays on the stack; every caller resets the stack top.
        let key = string(at: -2, on: thread)
        try budget.spend(entries: 1, bytes: key.utf8.count)
        let value = try read(at: -1, on: thread, runtime: runtime, budget: &budget, depth: depth + 1)
        // Lua keys differ by bytes; Swift strings that read the same ("é" and "e" with a
        // combining accent) are one key, and one value would be lost.
        guard result.fields.updateValue(value, forKey: key) == nil else { throw .equivalentKeys(key) }
      } else if lua_isinteger(thread, -2) == 0 || length == 0
        || !(1...Int64(length)).contains(Int64(lua_tointegerx(thread, -2, nil)))
      {
        result.otherKeyCount += 1
      }
    }
    return result
  }

  static func reference(to index: Int32, on thread: OpaquePointer, runtime: LuaRuntime) -> LuaReference {
    lua_pushvalue(thread, index)
    return LuaReference(id: clua_ref_protected(thread), runtime: runtime)
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
      return describe(number: lua_tonumberx(thread, index, nil))
    case LUA_TSTRING:
      // Copies a bounded start only: the engine cuts what it keeps of an answer to 60
      // Unicode scalars (TextCap, which this layer cannot see), and 60 scalars are at
      // most 240 bytes. Counting Characters here kept megabytes: one character can be
      // "a" and a million combining marks.
      var length = 0
      guard let pointer = clua_tostring(thread, index, &length) else { return "\"\"" }
      let shown = min(length, describedStringBytes)
      let text = pointer.withMemoryRebound(to: UInt8.self, capacity: shown) {
        String(decoding: UnsafeBufferPointer(start: $0, count: shown), as: UTF8.self)
      }
      return "\"" + text + (shown < length ? "" : "\"")
    default:
      return "a " + String(cString: lua_typename(thread, lua_type(thread, index))) + " value"
    }
  }

  /// The most bytes of a string answer a description copies.
  static let describedStringBytes = 256

  /// A whole float reads as a whole number (`2`, not `2.0`), as the trace shows numbers.
  private static func describe(number: Double) -> String {
    if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
    return String(number)
  }
}
