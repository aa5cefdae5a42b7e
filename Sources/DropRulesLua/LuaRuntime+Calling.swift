import CLua
import CLuaHost

/// Protected calls under the budget, and the errors they end in.
extension LuaRuntime {
  /// Calls `function` under the instruction budget and memory cap.
  ///
  /// A call made while another call runs on this runtime (from a host function) shares
  /// the outer call's budget.
  ///
  /// - Parameters:
  ///   - function: the function to call: a loaded chunk, or a function Lua returned.
  ///   - arguments: the values it receives, copied into Lua.
  ///   - keepingTables: return result tables as references instead of copies.
  ///   - hostWork: the call runs the embedder's own trusted Lua, whose work grows with
  ///     the embedder's data, not with what untrusted code chose to do: no instruction
  ///     budget, but the memory cap and the deadline.
  /// - Returns: the function's results, copied into Swift.
  /// - Throws: ``LuaError`` when the function raises an error, a limit is reached, or a
  ///   result cannot be copied.
  @discardableResult
  public func call(
    _ function: LuaReference, _ arguments: [LuaValue] = [], keepingTables: Bool = false, hostWork: Bool = false
  ) throws(LuaError) -> [LuaValue] {
    // From a host function, the call runs on the thread that called it (a coroutine's
    // own stack), not on the main thread, which is suspended in resume.
    let state = activeThread ?? self.state
    let base = lua_gettop(state)
    defer { lua_settop(state, base) }
    // Room for the function, the protected push's function and plan (which the arguments
    // replace; the push makes room for them itself) and the message handler.
    guard lua_checkstack(state, 4) != 0 else {
      throw LuaError(kind: .runtime, message: "stack overflow before a Lua call")
    }
    pushReference(function, on: state)
    let plan = startPlan(on: state)
    for argument in arguments { self.plan(argument, into: plan) }
    // Pushed by C in a protected call: running out of memory there is an error, not a
    // jump over this frame.
    let pushed = clua_push_plan_protected(state, plan)
    guard pushed == LUA_OK else {
      throw LuaError(
        kind: pushed == LUA_ERRMEM ? .memoryLimit(limits.maxMemory) : .runtime,
        message: "the arguments could not be passed to Lua: " + popString(on: state))
    }
    var outermost: Int32 = 0
    let status = clua_call(
      state, Int32(arguments.count), LUA_MULTRET, hostWork ? Int64.max / 4 : Int64(limits.maxInstructions), &outermost)
    guard status != -1 else { throw LuaError(kind: .runtime, message: "stack overflow before a Lua call") }
    guard status == LUA_OK else {
      throw callError(status: status, outermost: outermost != 0, on: state)
    }
    let top = lua_gettop(state)
    guard top > base else { return [] }
    var copyBudget = LuaCopyBudget(bytesLeft: memoryAvailable, deadline: activeDeadline)
    var results: [LuaValue] = []
    for index in base + 1...top {
      if keepingTables && lua_type(state, index) == LUA_TTABLE {
        results.append(.reference(Self.reference(to: index, on: state, runtime: self)))
        continue
      }
      do {
        results.append(try Self.read(at: index, on: state, runtime: self, budget: &copyBudget))
      } catch {
        let kind: LuaError.Kind =
          switch error {
          case .tooLarge: .memoryLimit(limits.maxMemory)
          case .outOfTime: .timeLimit(limits.maxTimeMilliseconds)
          case .cycle, .tooDeep, .equivalentKeys: .runtime
          }
        throw LuaError(kind: kind, message: "the call's result: \(error)")
      }
    }
    return results
  }

  /// The error of a failed protected call, whose message is on top of the stack.
  func callError(status: Int32, outermost: Bool, on thread: OpaquePointer? = nil) -> LuaError {
    let raw = popString(on: thread ?? state)
    let budget = clua_call_end(state)
    var (message, traceback) = Self.splitTraceback(raw)
    let kind: LuaError.Kind
    if outermost && budget.instructionsExhausted != 0 {
      kind = .instructionLimit(limits.maxInstructions)
    } else if outermost && budget.timeExceeded != 0 {
      kind = .timeLimit(limits.maxTimeMilliseconds)
      // An allocation refused after the deadline reads "not enough memory".
      if status == LUA_ERRMEM { message = timeLimitMessage }
    } else if (outermost && budget.endedByMemoryLimit != 0) || status == LUA_ERRMEM {
      // Told by the error value (the message handler compared it), not by its text.
      kind = .memoryLimit(limits.maxMemory)
      if status == LUA_ERRMEM { message = memoryLimitMessage }
    } else {
      kind = .runtime
    }
    let error = LuaError(kind: kind, rawMessage: message, traceback: traceback)
    if outermost, case .memoryLimit = error.kind { clua_collectgarbage(state) }
    return restoringFullPath(error)
  }
}
