import CLua
import CLuaHost
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
  let state: OpaquePointer
  /// The thread a host function was called on, while it runs: calls it makes run there.
  @exclusivity(unchecked) var activeThread: OpaquePointer?
  /// The budget, memory cap and deadline every call on this runtime runs under.
  public let limits: LuaLimits
  private(set) var sandbox: LuaReference?
  /// The sandbox's own functions (views, objects), for droprules' trusted code.
  package var trustedLibrary: LuaValue { sandbox.map(LuaValue.reference) ?? .nil }
  /// Where `require` finds a module's source; nil: no module can be required. The
  /// runtime reads no file itself.
  public var moduleReader: LuaModuleReader?
  /// The paths of the chunks compiled so far, to restore paths Lua shortened in messages.
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
  /// Bytes that others drawing on the same cap hold now (for one of a test's
  /// simulations: the test's own runtime and its other simulations), counted like the
  /// Lua heap, so that together they stay under one cap.
  public var sharedAccountBytes = 0 {
    didSet { updateExternalBytes() }
  }
  /// The references the last push plan named, kept alive until the next plan starts
  /// (by then C has pushed it).
  var plannedReferences: [LuaReference] = []
  /// What keeps the watched version alive (see ``watchVersion(at:keepingAlive:)``), and
  /// the lists of what trusted Lua read of the embedder's data; the C budget holds the
  /// version's address and the lists' slots, and compares them before any Lua runs.
  private var versionOwner: AnyObject?
  private var readings: LuaReference?
  private var fieldReadings: LuaReference?
  /// The table emptied as every call begins (see ``forgetAtEveryCall(_:)``), kept alive.
  var callReadings: LuaReference?
  /// Receives `(file, line)` for every executed line while set (coverage).
  public var lineObserver: ((String, Int) -> Void)? {
    didSet { installLineObserver() }
  }
  /// The state's limits and counters (the allocator's user data), kept for the hot path.
  let budget: OpaquePointer

  /// Creates a runtime with the sandbox in place.
  ///
  /// - Parameters:
  ///   - limits: what every call on the runtime may use.
  ///   - randomSeed: seeds `math.random`, so that runs repeat.
  /// - Throws: ``LuaError`` when the state cannot be made under `limits.maxMemory` or the
  ///   sandbox does not load.
  public init(limits: LuaLimits = LuaLimits(), randomSeed: Int64 = 0x5EED) throws(LuaError) {
    guard let state = clua_newstate(limits.maxMemory, limits.timeLimitNanoseconds) else {
      throw LuaError(kind: .memoryLimit(limits.maxMemory), message: "could not create a Lua state")
    }
    self.state = state
    self.budget = clua_budget(state)
    self.limits = limits
    clua_set_host_functions(state, dispatchHostFunction, releaseHostFunction)
    var prepared = clua_PreparedState()
    // Thrown with every stored property set: deinit closes the state.
    guard clua_prepare_state(state, &prepared) == LUA_OK else {
      throw LuaError(kind: .memoryLimit(limits.maxMemory), message: "could not open Lua's libraries")
    }
    let readings = LuaReference(id: prepared.readings, runtime: self)
    self.readings = readings
    let fieldReadings = LuaReference(id: prepared.fieldReadings, runtime: self)
    self.fieldReadings = fieldReadings
    clua_set_readings_lists(state, readings.slot.id, fieldReadings.slot.id)
    let hostTable: LuaValue = .table(
      LuaTable(fields: [
        "print": function { [unowned self] arguments in
          try record(printed: arguments.first?.stringValue ?? "")
          return []
        },
        "bounded": .reference(LuaReference(id: prepared.boundedLibrary, runtime: self)),
        "maximumPrintedLine": .integer(Int64(Self.maximumPrintedLineBytes)),
        "readModule": function { [unowned self] arguments in
          readModule(named: arguments.first?.stringValue ?? "")
        },
        "randomSeed": .integer(randomSeed),
        "readings": .reference(readings),
        "fieldReadings": .reference(fieldReadings),
      ]))
    let prelude = try load(source: PackageResources.sandbox_lua, chunkName: "=[droprules sandbox]")
    // Building the sandbox is the host's own work: no instruction budget applies.
    let built = try call(prelude, [hostTable], keepingTables: true, hostWork: true)
    guard case .reference(let sandbox) = built.first ?? .nil else {
      throw LuaError(kind: .runtime, message: "the sandbox prelude returned no table")
    }
    self.sandbox = sandbox
    guard clua_seal_libraries(state) == LUA_OK else {
      throw LuaError(kind: .memoryLimit(limits.maxMemory), message: "could not seal Lua's libraries")
    }
  }

  deinit {
    clua_close(state)
  }

  /// Compares the integer at `pointer` (which `owner` keeps valid) before any Lua runs:
  /// once it moved, what trusted Lua kept of the embedder's data is forgotten (the tables
  /// listed in the sandbox's `readings` are emptied, the fields listed in its
  /// `fieldReadings` removed), so nothing kept from an older version is read.
  public func watchVersion(at pointer: UnsafePointer<Int>, keepingAlive owner: AnyObject) {
    versionOwner = owner
    clua_watch_version(state, pointer)
  }

  /// Empties what trusted Lua kept of an older version of the embedder's data, in C
  /// (no Lua runs, nothing is allocated, no budget applies): every way into Lua calls this
  /// first, so nothing kept can be read stale, whatever the rule's budget.
  @inline(__always) func dropStaleReadings() -> Bool {
    // On the running thread: from a host function, the main thread is suspended in resume.
    clua_forget_stale_readings(activeThread ?? state, budget) != 0
  }

  /// Values on the Lua stack besides the resident ones; zero between calls (tests check
  /// for leaks).
  var stackDepth: Int { Int(lua_gettop(state)) - Int(CLUA_RESIDENT_SLOTS) }

  /// Bytes the runtime holds now, in the Lua heap and on the rules' behalf.
  public var memoryInUse: Int { clua_memory_in_use(state) + externalBytes }

  private var externalBytes: Int { clua_external_bytes(state) }

  /// Collects all garbage now, between calls: for tests of what the heap holds.
  package func collectGarbage() { clua_collect_garbage(state) }

  /// Bytes this runtime holds itself: ``memoryInUse`` without ``sharedAccountBytes``.
  public var ownMemoryInUse: Int { memoryInUse - max(0, sharedAccountBytes) }

  /// Bytes left under the cap.
  public var memoryAvailable: Int { max(0, limits.maxMemory - memoryInUse) }

  /// The message of a spent memory cap, the same whether Lua or the host ran out.
  public var memoryLimitMessage: String { "memory limit of \(limits.maxMemory) bytes exceeded" }

  /// The message of a passed deadline, as the count hook raises it too.
  var timeLimitMessage: String { "time limit of \(limits.maxTimeMilliseconds) ms exceeded" }

  /// Longer printed lines are cut: a trace is read by people.
  static let maximumPrintedLineBytes = 8 * 1024

  /// What a printed line costs against the cap while the host holds it: its bytes and
  /// the String that holds them, so that `print()` in a loop, whose lines have no bytes,
  /// still fills the cap rather than the process.
  public static func printedCost(of line: String) -> Int { line.utf8.count + MemoryLayout<String>.stride }

  /// Keeps a printed line, which the sandbox's `print` has already cut to
  /// ``maximumPrintedLineBytes`` before the host copied it.
  func record(printed line: String) throws {
    let cost = Self.printedCost(of: line)
    guard cost <= memoryAvailable else {
      throw LuaHostError.memoryLimit(memoryLimitMessage + " (printed output counts until the host releases it)")
    }
    printedBytes += cost
    updateExternalBytes()
    printedLines.append(line)
  }

  private func updateExternalBytes() {
    clua_set_external_bytes(state, printedBytes + max(0, heldBytes) + max(0, sharedAccountBytes))
  }

  /// Stops counting printed output against the cap: the caller took it and keeps it
  /// (a rule host does when a drag ends, and its trace holds the lines).
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

  func sandboxFunction(_ name: String) throws(LuaError) -> LuaReference {
    guard let sandbox else { throw LuaError(kind: .runtime, message: "sandbox not ready") }
    return LuaReference(id: clua_field_ref(state, sandbox.slot.id, name), runtime: self)
  }

  private func installLineObserver() {
    clua_set_line_observer(
      state, lineObserver == nil ? nil : observeLine, Unmanaged.passUnretained(self).toOpaque())
  }

  func observe(source: String, line: Int) {
    guard source.hasPrefix("@") else { return }
    lineObserver?(String(source.dropFirst()), line)
  }

  /// The error message on top (popped), cut as a printed line is: a rule that raises a
  /// message of megabytes, step after step, must not fill the host's memory and its
  /// trace. Lua's traceback at its end is kept.
  func popString(on thread: OpaquePointer? = nil) -> String {
    let thread = thread ?? state
    defer { clua_pop(thread, 1) }
    guard lua_type(thread, -1) == LUA_TSTRING else {
      return "(error object is a \(String(cString: luaTypeName(thread, -1))) value)"
    }
    var length = 0
    guard let pointer = clua_tostring(thread, -1, &length) else { return "" }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
    let limit = Self.maximumPrintedLineBytes
    guard length > 2 * limit else { return String(decoding: bytes, as: UTF8.self) }
    // The traceback our message handler appended starts at the last marker near the end.
    let marker = Array("\nstack traceback:".utf8)
    let tailStart = max(limit, length - 4 * limit)
    var tracebackStart = length
    var index = length - marker.count
    while index >= tailStart {
      if bytes[index] == marker[0], bytes[index..<index + marker.count].elementsEqual(marker) {
        tracebackStart = index
        break
      }
      index -= 1
    }
    let message = String(decoding: bytes[0..<limit], as: UTF8.self)
    let traceback = String(decoding: bytes[tracebackStart..<length], as: UTF8.self)
    return message + "... (\(tracebackStart - limit) more bytes not shown)" + traceback
  }

  func pushReference(_ reference: LuaReference, on thread: OpaquePointer? = nil) {
    lua_rawgeti(thread ?? state, clua_registryindex(), lua_Integer(reference.id))
  }

  /// Keeps the value on top in the registry (popping it). In a protected call: a registry
  /// that cannot grow gives a reference that reads nil, not a jump over Swift.
  func popReference() -> LuaReference {
    LuaReference(id: clua_ref_protected(state), runtime: self)
  }

  func release(_ id: Int32) {
    luaL_unref(state, clua_registryindex(), id)
  }
}

@available(*, unavailable) extension LuaRuntime: Sendable {}
