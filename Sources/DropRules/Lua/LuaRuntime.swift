import CLua
import Foundation

/// One sandboxed Lua 5.4 state: the only owner of a `lua_State` in droprules.
///
/// The runtime loads text chunks only, runs every call under an instruction budget and
/// a memory cap (``LuaLimits``), and reports failures as ``LuaError``. It is confined to
/// the thread that made it.
///
/// ```swift
/// let lua = try LuaRuntime()
/// let chunk = try lua.load(source: "return 1 + 1", chunkName: "=example")
/// let results = try lua.call(chunk)   // [.integer(2)]
/// ```
public final class LuaRuntime {
  private let state: OpaquePointer
  public let limits: LuaLimits
  private var hostFunctions: [HostFunctionBox] = []
  private var sandbox: LuaReference?
  /// The sandbox's own functions (views, objects), for droprules' trusted code.
  var trustedLibrary: LuaValue { sandbox.map(LuaValue.reference) ?? .nil }
  /// Directories that `require` may load modules from: those of the loaded rule files.
  public internal(set) var moduleDirectories: [String] = []
  /// Files loaded so far, to restore paths that Lua shortened in messages.
  var loadedFiles: Set<String> = []
  /// What `print` wrote since the last ``takePrintedLines()``.
  private var printedLines: [String] = []
  /// Bytes of printed output held for the caller, counted against the cap until
  /// ``releasePrintedOutput()``.
  private var printedBytes = 0
  /// Bytes the embedder holds on behalf of the code this runtime runs (data rules
  /// stored, rule hosts a test made), counted against the cap like the Lua heap.
  public var heldBytes = 0 {
    didSet { updateExternalBytes() }
  }
  /// Receives `(file, line)` for every executed line while set (coverage).
  public var lineObserver: ((String, Int) -> Void)? {
    didSet {
      observesLines = lineObserver != nil
      installLineObserver()
    }
  }
  private var observesLines = false
  /// The state's limits and counters (the allocator's user data), kept for the hot path.
  private let budget: UnsafeMutablePointer<clua_Budget>

  /// Creates a runtime with the sandbox in place.
  ///
  /// - Parameter randomSeed: seeds `math.random`, so that runs repeat.
  public init(limits: LuaLimits = LuaLimits(), randomSeed: Int64 = 0x5EED) throws(LuaError) {
    guard let state = clua_newstate(limits.maxMemory, limits.timeLimitNanoseconds) else {
      throw LuaError(kind: .memoryLimit(limits.maxMemory), message: "could not create a Lua state")
    }
    self.state = state
    self.budget = clua_budget(state)
    self.limits = limits
    clua_budget(state).pointee.swiftDispatcher = dispatchHostFunction
    luaL_openlibs(state)
    clua_keep_keys(state)
    let hostTable: LuaValue = .table(
      LuaTable(fields: [
        "print": function { [unowned self] arguments in
          try record(printed: arguments.first?.stringValue ?? "")
          return []
        },
        "bounded": .reference(boundedLibrary()),
        "maximumPrintedLine": .integer(Int64(Self.maximumPrintedLineBytes)),
        "readModule": function { [unowned self] arguments in
          readModule(named: arguments.first?.stringValue ?? "")
        },
        "randomSeed": .integer(randomSeed),
      ]))
    let prelude = try load(source: PackageResources.sandbox_lua, chunkName: "=[droprules sandbox]")
    guard case .reference(let sandbox) = try call(prelude, [hostTable], keepingTables: true).first ?? .nil else {
      throw LuaError(kind: .runtime, message: "the sandbox prelude returned no table")
    }
    self.sandbox = sandbox
    removeStringDump()
    clua_lock_string_metatable(state)
  }

  deinit {
    clua_close(state)
  }

  /// Values on the Lua stack besides the resident ones; zero between calls (tests check
  /// for leaks).
  var stackDepth: Int { Int(lua_gettop(state)) - Int(CLUA_RESIDENT_SLOTS) }

  /// Bytes the runtime holds now, in the Lua heap and on the rules' behalf.
  public var memoryInUse: Int { clua_budget(state).pointee.memoryInUse + externalBytes }

  private var externalBytes: Int { clua_budget(state).pointee.externalBytes }

  /// Bytes left under the cap.
  public var memoryAvailable: Int { max(0, limits.maxMemory - memoryInUse) }

  /// The message of a spent memory cap, the same whether Lua or the host ran out.
  public var memoryLimitMessage: String { "memory limit of \(limits.maxMemory) bytes exceeded" }

  /// The message of a passed deadline, as the count hook raises it too.
  private var timeLimitMessage: String { "time limit of \(limits.maxTimeMilliseconds) ms exceeded" }

  /// Longer printed lines are cut: a trace is read by people.
  static let maximumPrintedLineBytes = 8 * 1024

  /// Keeps a printed line, which the sandbox's `print` has already cut to
  /// ``maximumPrintedLineBytes`` before the host copied it.
  private func record(printed line: String) throws {
    // A line costs its bytes and the String that holds them, so that `print()` in a
    // loop, whose lines have no bytes, still fills the cap rather than the process.
    let cost = line.utf8.count + MemoryLayout<String>.stride
    guard cost <= memoryAvailable else {
      throw LuaHostError(memoryLimitMessage + " (printed output counts until its drag ends)")
    }
    printedBytes += cost
    updateExternalBytes()
    printedLines.append(line)
  }

  private func updateExternalBytes() {
    clua_set_external_bytes(state, printedBytes + max(0, heldBytes))
  }

  /// Stops counting printed output against the cap: the drag that printed it ended
  /// and its trace now belongs to the caller.
  public func releasePrintedOutput() {
    printedBytes = 0
    updateExternalBytes()
  }

  /// Returns and clears what `print` wrote.
  public func takePrintedLines() -> [String] {
    if printedLines.isEmpty { return [] }
    defer { printedLines.removeAll() }
    return printedLines
  }

  // MARK: Loading

  /// Compiles a text chunk. Binary chunks are refused.
  ///
  /// - Parameters:
  ///   - chunkName: `@path` for files (errors then read `path:line:`), `=name` otherwise.
  ///   - environment: the chunk's `_ENV`, usually from ``newEnvironment(globals:)``;
  ///     nil leaves the unrestricted global table, for droprules' own trusted code.
  public func load(
    source: some Sequence<UInt8>, chunkName: String, environment: LuaReference? = nil
  ) throws(LuaError) -> LuaReference {
    let status = Self.compile(Array(source), chunkName: chunkName, on: state)
    guard status == LUA_OK else {
      let message = popString()
      let kind: LuaError.Kind =
        status == LUA_ERRMEM ? .memoryLimit(limits.maxMemory) : .syntax
      throw restoringFullPath(LuaError(kind: kind, rawMessage: message))
    }
    if let environment {
      pushReference(environment)
      _ = lua_setupvalue(state, -2, 1)
    }
    return popReference()
  }

  public func load(
    source: String, chunkName: String, environment: LuaReference? = nil
  ) throws(LuaError) -> LuaReference {
    try load(source: Array(source.utf8), chunkName: chunkName, environment: environment)
  }

  /// Compiles a file as text, named by `path` in errors and tracebacks.
  public func loadFile(
    atPath path: String, environment: LuaReference?
  ) throws(LuaError) -> LuaReference {
    guard let contents = FileManager.default.contents(atPath: path) else {
      throw LuaError(kind: .refused, message: "cannot read the file", file: path)
    }
    let data = Self.withoutByteOrderMark(contents)
    if data.first == 0x1B {
      throw LuaError(
        kind: .refused, message: "binary (precompiled) chunks are not loaded; use the .lua source",
        file: path)
    }
    loadedFiles.insert(path)
    return try load(source: data, chunkName: "@" + path, environment: environment)
  }

  /// Lua shortens long chunk names to `...tail`; this restores the full path.
  private func restoringFullPath(_ error: LuaError) -> LuaError {
    guard let file = error.file, file.hasPrefix("...") else { return error }
    let tail = file.dropFirst(3)
    var restored = error
    restored.file = loadedFiles.first { $0.hasSuffix(tail) } ?? file
    return restored
  }

  /// A fresh sandboxed environment holding the safe standard library plus `globals`.
  public func newEnvironment(globals: [String: LuaValue] = [:]) throws(LuaError) -> LuaReference {
    let makeEnvironment = try sandboxFunction("newEnvironment")
    let results = try call(makeEnvironment, [.table(LuaTable(fields: globals))], keepingTables: true)
    guard case .reference(let environment) = results.first ?? .nil else {
      throw LuaError(kind: .runtime, message: "newEnvironment returned no table")
    }
    return environment
  }

  /// A Lua function value that runs `body` in Swift.
  public func function(_ body: @escaping LuaHostFunction) -> LuaValue {
    let box = HostFunctionBox(body: body, runtime: self)
    hostFunctions.append(box)
    clua_pushswiftfunction(state, Unmanaged.passUnretained(box).toOpaque())
    return .function(popReference())
  }

  // MARK: Calling

  /// Calls `function` under the instruction budget and memory cap.
  ///
  /// A call made while another call runs on this runtime (from a host function) shares
  /// the outer call's budget.
  ///
  /// - Parameters:
  ///   - keepingTables: return result tables as references instead of copies.
  ///   - hostWork: the call runs droprules' own Lua, whose work grows with the board (the
  ///     drag's `info` for 20,000 items), not a rule's: no instruction budget, but the
  ///     memory cap and the deadline.
  @discardableResult
  public func call(
    _ function: LuaReference, _ arguments: [LuaValue] = [], keepingTables: Bool = false, hostWork: Bool = false
  ) throws(LuaError) -> [LuaValue] {
    let base = lua_gettop(state)
    defer { lua_settop(state, base) }
    guard lua_checkstack(state, Int32(arguments.count) + 2) != 0 else {
      throw LuaError(kind: .runtime, message: "too many arguments for a Lua call")
    }
    pushReference(function)
    for argument in arguments { Self.push(argument, on: state) }
    let outermost = clua_budget(state).pointee.callDepth == 0
    if outermost { clua_arm(state, hostWork ? Int64.max / 4 : Int64(limits.maxInstructions), observesLines ? 1 : 0) }
    clua_budget(state).pointee.callDepth += 1
    let status = clua_pcall_traceback(state, Int32(arguments.count), LUA_MULTRET)
    clua_budget(state).pointee.callDepth -= 1
    let budget = clua_budget(state).pointee
    if outermost { clua_disarm(state) }
    guard status == LUA_OK else { throw callError(status: status, outermost: outermost, budget: budget) }
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
  private func callError(status: Int32, outermost: Bool, budget: clua_Budget) -> LuaError {
    let raw = popString()
    var (message, traceback) = Self.splitTraceback(raw)
    let kind: LuaError.Kind
    if outermost && budget.instructionsExhausted != 0 {
      kind = .instructionLimit(limits.maxInstructions)
    } else if outermost && budget.timeExceeded != 0 {
      kind = .timeLimit(limits.maxTimeMilliseconds)
      // An allocation refused after the deadline reads "not enough memory".
      if status == LUA_ERRMEM { message = timeLimitMessage }
    } else if status == LUA_ERRMEM || (budget.memoryRefused != 0 && message.hasSuffix("not enough memory"))
      || message.contains(memoryLimitMessage)
    {
      kind = .memoryLimit(limits.maxMemory)
      if status == LUA_ERRMEM { message = memoryLimitMessage }
    } else {
      kind = .runtime
    }
    let error = LuaError(kind: kind, rawMessage: message, traceback: traceback)
    if outermost, case .memoryLimit = error.kind { clua_collectgarbage(state) }
    return restoringFullPath(error)
  }

  // MARK: The hot path

  /// The slots a handler call of a pointer step uses, and the pointer it writes first.
  struct HandlerCall {
    var function: LuaSlot
    var info: LuaSlot
    var target: LuaSlot
    var location: LuaSlot
    var globalLocation: LuaSlot
    var local: (x: Double, y: Double)
    var global: (x: Double, y: Double)
  }

  /// Writes the pointer into `info.location` and `info.globalLocation`, calls
  /// `function(info, target)` and classifies its first result without copying it out of
  /// Lua: the handler call of every pointer step, in one C call, allocating nothing.
  func callHandler(_ call: HandlerCall) throws(LuaError) -> LuaHandlerReturn {
    var result = clua_HandlerResult()
    var slots = clua_HandlerCall(
      function: call.function.id, info: call.info.id, target: call.target.id, location: call.location.id,
      globalLocation: call.globalLocation.id, x: call.local.x, y: call.local.y, globalX: call.global.x,
      globalY: call.global.y)
    clua_call_handler(state, budget, &slots, Int64(limits.maxInstructions), observesLines ? 1 : 0, &result)
    if result.leftOnStack > 0 {
      // callError pops the message itself.
      guard result.status == LUA_OK else {
        throw callError(status: result.status, outermost: result.outermost != 0, budget: budget.pointee)
      }
      defer { clua_pop(state, 1) }
      return .other(Self.describe(at: -1, on: state))
    }
    switch result.kind {
    case CLUA_RESULT_NONE: return .nothing
    case CLUA_RESULT_TRUE: return .boolean(true)
    case CLUA_RESULT_FALSE: return .boolean(false)
    case CLUA_RESULT_PROPOSAL:
      let index: LuaHandlerReturn.Index
      switch result.indexKind {
      case CLUA_INDEX_INTEGER: index = .integer(result.integerIndex)
      case CLUA_INDEX_FLOAT: index = .float(result.floatIndex)
      case CLUA_INDEX_NOT_A_NUMBER: index = .notANumber
      default: index = .none
      }
      return .proposal(Int(result.proposal), index: index)
    default:
      return .other(Self.describe(at: -1, on: state))
    }
  }

  /// Sets `table[key]` to an integer, or removes it, without metamethods.
  func setInteger(_ table: LuaSlot, _ key: StaticString, _ value: Int?) {
    key.withUTF8Buffer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        clua_rawset_integer(state, table.id, $0.baseAddress, Int64(value ?? 0), value == nil ? 0 : 1)
      }
    }
  }

  /// Sets `table[key]` to a string, or removes it, without metamethods.
  func setString(_ table: LuaSlot, _ key: StaticString, _ value: String?) {
    key.withUTF8Buffer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { key in
        if let value {
          clua_rawset_string(state, table.id, key.baseAddress, value)
        } else {
          clua_rawset_string(state, table.id, key.baseAddress, nil)
        }
      }
    }
  }

  /// Where a Lua function is defined: its file and first line.
  public func definition(of function: LuaReference) -> (file: String, line: Int)? {
    pushReference(function)
    var debug = lua_Debug()
    guard lua_getinfo(state, ">S", &debug) != 0, let source = debug.source else { return nil }
    let name = String(cString: source)
    guard name.hasPrefix("@") else { return nil }
    return (String(name.dropFirst()), Int(debug.linedefined))
  }

  // MARK: Internals

  private func sandboxFunction(_ name: String) throws(LuaError) -> LuaReference {
    guard let sandbox else { throw LuaError(kind: .runtime, message: "sandbox not ready") }
    pushReference(sandbox)
    lua_pushstring(state, name)
    lua_rawget(state, -2)
    lua_rotate(state, -2, -1)
    clua_pop(state, 1)
    return popReference()
  }

  private func removeStringDump() {
    lua_getglobal(state, "string")
    lua_pushnil(state)
    lua_setfield(state, -2, "dump")
    clua_pop(state, 1)
  }

  /// Lua's own pattern functions, which tests compare the bounded ones with.
  func originalPatternsForTesting() throws(LuaError) -> LuaValue {
    try call(try sandboxFunction("originalPatternsForTesting"), keepingTables: true).first ?? .nil
  }

  /// Bytecode for `source`, made with the `string.dump` that rules cannot reach; tests
  /// use it to prove that valid bytecode is refused.
  func bytecodeForTesting(_ source: String) throws(LuaError) -> [UInt8] {
    let dump = try sandboxFunction("dumpForTesting")
    guard case .string(let text) = try call(dump, [.string(source)]).first ?? .nil else { return [] }
    return Array(text.utf8)
  }

  private func installLineObserver() {
    let budget = clua_budget(state)
    if lineObserver == nil {
      budget.pointee.lineObserver = nil
      budget.pointee.lineObserverContext = nil
    } else {
      budget.pointee.lineObserver = observeLine
      budget.pointee.lineObserverContext = Unmanaged.passUnretained(self).toOpaque()
    }
  }

  func observe(source: String, line: Int) {
    guard source.hasPrefix("@") else { return }
    lineObserver?(String(source.dropFirst()), line)
  }

  /// Runs a host function for Lua: copies its arguments within the memory left, pays
  /// for the copy in instructions, and pushes its results only if they fit under the cap.
  /// Returns the number of results, or -1 with an error message pushed.
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
      case .tooLarge: return fail("\(memoryLimitMessage): \(error)", on: thread)
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
    do {
      let results = try box.body(arguments)
      let resultBytes = results.reduce(0, { $0 + $1.estimatedLuaBytes })
      if clua_charge_or_report(thread, Int64(resultBytes / 16)) != 0 {
        return fail(spentBudgetMessage, on: thread)
      }
      guard resultBytes <= memoryAvailable else {
        return fail(memoryLimitMessage + ": the host's result does not fit under the cap", on: thread)
      }
      guard lua_checkstack(thread, Int32(results.count) + 1) != 0 else {
        return fail("too many results from a host function", on: thread)
      }
      for result in results { Self.push(result, on: thread) }
      return Int32(results.count)
    } catch {
      return fail("\(error)", on: thread)
    }
  }

  /// The running call's deadline, or 0 when none runs or it has none.
  private var activeDeadline: Int64 {
    budget.pointee.countingInstructions != 0 && budget.pointee.timeLimit != 0 ? budget.pointee.deadline : 0
  }

  private var spentBudgetMessage: String {
    budget.pointee.instructionsExhausted != 0
      ? "instruction budget of \(limits.maxInstructions) instructions exceeded"
      : timeLimitMessage
  }

  /// Pushes `message` (with its length, so a NUL cannot cut it) for the trampoline to raise.
  private func fail(_ message: String, on thread: OpaquePointer) -> Int32 {
    Self.push(.string(message), on: thread)
    return -1
  }

  private func boundedLibrary() -> LuaReference {
    clua_push_bounded_library(state)
    return popReference()
  }

  private func popString() -> String {
    defer { clua_pop(state, 1) }
    if lua_type(state, -1) == LUA_TSTRING { return Self.string(at: -1, on: state) }
    return "(error object is a \(String(cString: luaL_typename_shim(state, -1))) value)"
  }

  private func pushReference(_ reference: LuaReference) {
    lua_rawgeti(state, clua_registryindex(), lua_Integer(reference.id))
  }

  private func popReference() -> LuaReference {
    LuaReference(id: luaL_ref(state, clua_registryindex()), runtime: self)
  }

  func release(_ id: Int32) {
    luaL_unref(state, clua_registryindex(), id)
  }
}

@available(*, unavailable) extension LuaRuntime: Sendable {}
