import CLua
import CLuaHost

/// Swift functions that Lua code calls.
extension LuaRuntime {
  /// A Lua function value that runs `body` in Swift.
  public func function(_ body: @escaping LuaHostFunction) -> LuaValue {
    // Retained for the Lua closure, which releases it when collected (`releaseHostFunction`).
    let box = Unmanaged.passRetained(HostFunctionBox(body: body, runtime: self)).toOpaque()
    let slot = clua_swift_function_ref(state, box)
    if slot == LUA_NOREF { Unmanaged<HostFunctionBox>.fromOpaque(box).release() }
    return .function(LuaReference(id: slot, runtime: self))
  }

  /// Runs a host function for Lua: copies its arguments within the memory left, pays
  /// for the copy in instructions, and plans its results only if they fit under the cap
  /// (the trampoline pushes them, in C). Returns the number of results, or -1 with an
  /// error message planned.
  func runHostFunction(_ box: HostFunctionBox, on thread: OpaquePointer) -> Int32 {
    let count = lua_gettop(thread)
    var copyBudget = LuaCopyBudget(bytesLeft: memoryAvailable, deadline: activeDeadline)
    var arguments: [LuaValue] = []
    arguments.reserveCapacity(Int(count))
    do {
      for index in 0..<count {
        arguments.append(try Self.read(at: index + 1, on: thread, runtime: self, budget: &copyBudget))
      }
    } catch {
      switch error {
      case .tooLarge: return failForMemory("\(memoryLimitMessage): \(error)", on: thread)
      case .outOfTime:
        _ = clua_charge_or_report(thread, 0)  // marks the deadline passed, for every next instruction
        return fail(spentBudgetMessage, on: thread)
      case .cycle, .tooDeep, .equivalentKeys: return fail("\(error)", on: thread)
      }
    }
    // The host's work is paid for like Lua's: an instruction per entry copied and per
    // 16 bytes of text, before and after the function runs, with the clock read each time.
    if clua_charge_or_report(thread, Int64(copyBudget.entriesCopied + copyBudget.bytesCopied / 16)) != 0 {
      return fail(spentBudgetMessage, on: thread)
    }
    let outerThread = activeThread
    activeThread = thread
    defer { activeThread = outerThread }
    let body = Result { try box.body(arguments) }
    // Whatever the function changed, Lua sees the new version when it resumes.
    guard dropStaleReadings() else { return fail("stack overflow in a host function", on: thread) }
    do {
      let results = try body.get()
      let resultBytes = results.reduce(0, { $0 + $1.estimatedLuaBytes })
      if clua_charge_or_report(thread, Int64(resultBytes / 16)) != 0 {
        return fail(spentBudgetMessage, on: thread)
      }
      guard resultBytes <= memoryAvailable else {
        return failForMemory(memoryLimitMessage + ": the host's result does not fit under the cap", on: thread)
      }
      // Planned after the body ran: a call into Lua from the body used the plan too.
      let plan = startPlan(on: thread)
      for result in results { self.plan(result, into: plan) }
      return Int32(results.count)
    } catch {
      if let error = error as? LuaHostError, error.isMemoryLimit { return failForMemory("\(error)", on: thread) }
      return fail("\(error)", on: thread)
    }
  }

  /// The running call's deadline, or 0 when none runs or it has none.
  var activeDeadline: Int64 {
    clua_active_deadline(state)
  }

  var spentBudgetMessage: String {
    clua_instructions_exhausted(state) != 0
      ? "instruction budget of \(limits.maxInstructions) instructions exceeded"
      : timeLimitMessage
  }

  /// Plans `message` (with its length, so a NUL cannot cut it) for the trampoline to raise.
  func fail(_ message: String, on thread: OpaquePointer) -> Int32 {
    plan(.string(message), into: startPlan(on: thread))
    return -1
  }

  /// ``fail(_:on:)`` for the memory cap: the call's error is then a memory limit, if it
  /// is this error that ends it.
  func failForMemory(_ message: String, on thread: OpaquePointer) -> Int32 {
    let plan = startPlan(on: thread)
    self.plan(.string(message), into: plan)
    clua_plan_memory_error(plan)
    return -1
  }
}
