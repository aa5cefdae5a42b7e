import CLua
import CLuaHost
import Foundation

/// The hot path: a call that writes two points in place and classifies its answer
/// without copying it out of Lua, in one C call that allocates nothing.
extension LuaRuntime {
  /// Names the strings a point call's result is classified by: a result that is one of
  /// `words`, or a table whose `symbolKey` holds one (with a number under `numberKey`),
  /// is a ``LuaCallResult/symbol(_:number:flag:)``, with its `flagKey` read as a boolean.
  package func internSymbols(_ words: [String], symbolKey: String, numberKey: String, flagKey: String)
    throws(LuaError)
  {
    let interned = withCStrings(words) { pointers in
      clua_intern_symbols(state, pointers, Int32(pointers.count), symbolKey, numberKey, flagKey)
    }
    guard interned != -1 else {
      throw LuaError(kind: .memoryLimit(limits.maxMemory), message: "no memory left to intern the symbols")
    }
    guard interned != 0 else {
      throw LuaError(kind: .runtime, message: "at most \(CLUA_MAX_SYMBOLS) symbols can be interned")
    }
  }

  /// Writes the pointer into the two point tables (`local` into `point`, `global` into
  /// `globalPoint`), calls `function(first, second)` and classifies its first result.
  /// Slots, not a struct of them: the call runs on every pointer step, and a struct made
  /// in another module costs a call of its own.
  package func callWithPoints(
    _ function: LuaSlot, _ first: LuaSlot, _ second: LuaSlot, point: LuaSlot, globalPoint: LuaSlot,
    local: (x: Double, y: Double), global: (x: Double, y: Double)
  ) throws(LuaError) -> LuaCallResult {
    var result = clua_CallResult()
    var slots = clua_PointCall(
      function: function.id, first: first.id, second: second.id, point: point.id, globalPoint: globalPoint.id,
      x: local.x, y: local.y, globalX: global.x, globalY: global.y)
    // The C forgets stale readings first, as every way into Lua does.
    clua_call_with_points(state, budget, &slots, Int64(limits.maxInstructions), &result)
    guard result.status == LUA_OK || result.leftOnStack > 0 else {
      throw LuaError(kind: .runtime, message: "stack overflow before a handler call")
    }
    if result.leftOnStack > 0 {
      // callError pops the message itself.
      guard result.status == LUA_OK else {
        throw callError(status: result.status, outermost: result.outermost != 0)
      }
      defer { clua_pop(state, 1) }
      return .other(Self.describe(at: -1, on: state))
    }
    switch result.kind {
    case CLUA_RESULT_NONE: return .nothing
    case CLUA_RESULT_TRUE: return .boolean(true)
    case CLUA_RESULT_FALSE: return .boolean(false)
    case CLUA_RESULT_SYMBOL:
      let number: LuaCallResult.Number
      switch result.numberKind {
      case CLUA_NUMBER_INTEGER: number = .integer(result.integerNumber)
      case CLUA_NUMBER_FLOAT: number = .float(result.floatNumber)
      case CLUA_NUMBER_NOT_A_NUMBER: number = .notANumber
      default: number = .none
      }
      return .symbol(Int(result.symbol), number: number, flag: result.flag != 0)
    default:
      return .other(Self.describe(at: -1, on: state))
    }
  }

  /// Removes every field of `table` and gives it `metatable`, without running Lua and
  /// without allocating, so it cannot fail.
  package func empty(_ table: LuaSlot, settingMetatable metatable: LuaSlot) {
    guard lua_checkstack(activeThread ?? state, 4) != 0 else { return }
    clua_empty_table(activeThread ?? state, table.id, metatable.id)
  }

  /// Has every call from now on begin with `table` emptied once something filled it
  /// (``callReadingsFilled()``): it holds what trusted Lua read of the running call.
  package func forgetAtEveryCall(_ table: LuaReference) {
    callReadings = table
    clua_set_call_readings(state, table.slot.id)
  }

  /// Says the running call is filling the table ``forgetAtEveryCall(_:)`` named: the next
  /// call begins by emptying it. Calls that fill nothing empty nothing.
  package func callReadingsFilled() {
    clua_call_readings_filled(activeThread ?? state)
  }

  /// Empties the table ``forgetAtEveryCall(_:)`` named, now: for a call that goes on after
  /// one nested in it returned, so that it does not read what the nested call read.
  package func forgetCallReadings() {
    _ = clua_forget_call_readings(activeThread ?? state)
  }
}

/// Calls `body` with C strings for `strings`, valid during the call.
private func withCStrings<Result>(
  _ strings: [String], _ body: ([UnsafePointer<CChar>]) -> Result
) -> Result {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  return body(copies.compactMap { $0.map { UnsafePointer($0) } })
}
