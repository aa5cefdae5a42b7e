import DropRules
import DropRulesTools
import Foundation

/// One `*_test.lua` file: its tests, and the simulations they create.
///
/// Each test runs in a fresh load of the file: the test API and the file's top-level
/// code run again, in a new environment, so nothing a test changes, replaces or patches
/// (`expect`, a library, a table of the file, a global) reaches the tests after it. The
/// loads share one Lua state, in which the file and the API are compiled once: a test
/// costs its own work and one run of the file's top level, not a new state and the
/// file's whole code undumped again. Where the file's main chunk does nothing after a
/// test but register more tests (``RegistrationTail``, read from its bytecode), that
/// test's load stops once it is registered. A test stopped by a limit leaves the state to
/// the collector and the next test gets a new one.
final class RuleTestFile {
  struct TestCase {
    var name: String
    var line: Int?
    /// Its place among the tests the file registers, which every load repeats.
    var position: Int
    /// Registered with `pending`: listed, never run.
    var isPending = false
  }

  /// How a test ended: its status and why it failed, one entry per failure.
  struct Outcome {
    var status: TestCaseResult.Status
    var failures: [String] = []
  }

  /// The test file loaded once: its own Lua state and the tests it registered.
  struct LoadedFile {
    struct Test {
      var name: String
      var line: Int?
      var body: LuaReference?
      /// The before_each and after_each hooks around it, in the order they run.
      var before: [LuaReference]
      var after: [LuaReference]
    }

    let runtime: LuaRuntime
    /// By position: all of them, or the one the load was for.
    let tests: [Int: Test]
    /// The file's `property` declarations, in order.
    var properties: [(name: String, check: LuaReference, line: Int?)] = []
    /// Mark the start and the end of a test: an expectation without a matcher fails it.
    let startTest: LuaReference
    let finishTest: LuaReference
  }

  /// The Lua state the file's loads share, with what each load runs again.
  struct SharedState {
    let runtime: LuaRuntime
    /// testing.lua and the test file, compiled.
    let prelude: LuaReference
    let chunk: LuaReference
    /// The host functions testing.lua calls, one table for every load.
    let hostFunctions: LuaReference
    /// The file's registration tail, where a test's load may stop; nil when it has none.
    var tail: RegistrationTail?
    /// The tail's lines, as a table of `line = true` for testing.lua.
    var tailLines: LuaReference?
  }

  let file: String
  let limits: LuaLimits
  let coverage: CoverageRecorder?
  /// A load no test has run in yet: the first test runs there, not in a load of its own.
  private var unused: LoadedFile?
  /// The state the next load runs in; nil after a test a limit stopped.
  private(set) var shared: SharedState?
  /// Loads that stopped once their test was registered (for tests of this).
  private(set) var loadsStoppedEarly = 0
  /// At most the VM instructions one registration in the tail runs: its four in the main
  /// chunk and the registration function's own (about fifteen), with room to spare.
  static let instructionsPerRegistration = 64
  /// How far the instruction count may lag behind: one step of the count hook.
  static let countLag = 1_000

  /// Whether a load that has counted `counted` instructions of its `limit` would stay
  /// within it through `tail` more registrations.
  static func budgetHolds(counted: Int, limit: Int, tail: Int) -> Bool {
    let (tailCost, overflow) = tail.multipliedReportingOverflow(by: instructionsPerRegistration)
    return !overflow && counted <= limit - countLag - tailCost
  }

  /// Whether `bytes` more allocations leave the heap short of the memory cap's reserve,
  /// where the cap collects garbage (which a test could see in a weak table) and then
  /// refuses.
  static func memoryHolds(available: Int, reserve: Int, bytes: Int) -> Bool {
    available - reserve >= bytes
  }
  /// The current test's simulations, by the number its handles carry.
  var simulations: [Int: TestSimulation] = [:]
  /// What the current test's simulations held after they last ran, counted against the
  /// test runtime's cap: each `scenario{}` is a rule host of its own.
  var simulationBytes = 0
  var nextDrag = 1
  var nextSimulation = 1
  /// What the last test run printed: the test file's code and the rules it drove, in order.
  var printed = PrintedOutput()
  /// The rule files the tests' simulations loaded so far.
  var ruleFilesLoaded: Set<String> = []

  init(file: String, limits: LuaLimits, coverage: CoverageRecorder?) {
    self.file = file
    self.limits = limits
    self.coverage = coverage
  }

  /// The rule file a test file tests by default: `calendar_test.lua` -> `calendar.lua`.
  var defaultRuleFile: String {
    file.hasSuffix("_test.lua") ? String(file.dropLast("_test.lua".count)) + ".lua" : file
  }

  /// Runs the test file, which registers its tests.
  func load() throws(LuaError) -> [TestCase] {
    let loaded = try loadFile(only: nil)
    unused = loaded
    return loaded.tests.sorted { $0.key < $1.key }.map { position, test in
      TestCase(name: test.name, line: test.line, position: position, isPending: test.body == nil)
    }
  }

  /// Runs one test in a fresh load of the file: its before_each hooks, its body, its
  /// after_each hooks (also after a failure), then the checks every test gets: each
  /// `expect` has a matcher, and every rule error was taken (`sim:takeErrors()`).
  func run(_ test: TestCase) -> Outcome {
    printed = PrintedOutput()
    defer {
      simulations.removeAll()
      simulationBytes = 0
    }
    if test.isPending { return Outcome(status: .pending) }
    let loaded: LoadedFile
    if let unused {
      loaded = unused
      self.unused = nil
    } else {
      do { loaded = try loadFile(only: test.position) } catch {
        return Outcome(status: .failed, failures: [error.description])
      }
    }
    guard let registered = loaded.tests[test.position], registered.name == test.name, let body = registered.body else {
      return Outcome(
        status: .failed,
        failures: [
          "\(file): loaded again to run '\(test.name)', the file registered other tests; "
            + "register the same tests, in the same order, on every load"
        ])
    }
    // The load's own output (the file's top-level code ran again for this test) and the body's.
    defer { collectPrinted(from: loaded.runtime) }
    var failures: [String] = []
    func call(_ function: LuaReference) -> Bool {
      do {
        try loaded.runtime.call(function)
        return true
      } catch {
        // A limit may have stopped the state's own Lua half-way: the next test starts anew.
        if error.kind != .runtime { shared = nil }
        var failure = error
        if failure.file == nil {
          failure.file = file
          failure.line = test.line
        }
        failures.append(failure.description)
        return false
      }
    }
    // Where the file's code could see what the collector has done (a weak table, the
    // memory count), it sees the same before every test: how much of the file the load
    // ran (a stopped load skips registrations and their closures) and what else the file
    // holds leave no trace. Elsewhere the full mark, which grows with the file, is skipped.
    if loaded.runtime.collectorWatched { loaded.runtime.collectGarbage() }
    _ = call(loaded.startTest)
    if registered.before.allSatisfy(call) { _ = call(body) }
    for hook in registered.after { _ = call(hook) }
    if failures.isEmpty { _ = call(loaded.finishTest) }
    failures += untakenErrors()
    return Outcome(status: failures.isEmpty ? .passed : .failed, failures: failures)
  }

  /// A failure for each rule error the test did not take, `file:line: message` first (so
  /// every report, JSON's `file` and `line` too, locates it): a handler that crashed
  /// cannot pass a test that expected what its failure gives.
  private func untakenErrors() -> [String] {
    simulations.sorted { $0.key < $1.key }.flatMap { _, simulation in
      simulation.untakenErrors.map { "\($0.description); a rule error the test did not take with sim:takeErrors()" }
    }
  }

  /// A fresh load of the file: the test API and the file's top level run again, in a new
  /// environment of the shared state (made first when there is none).
  ///
  /// - Parameter position: the position of the one test to take, or nil for all.
  /// - Returns: the runtime and the tests the file registered, by position.
  /// - Throws: ``LuaError`` when the test API or the file does not load or run.
  func loadFile(only position: Int?) throws(LuaError) -> LoadedFile {
    let state: SharedState
    if let shared {
      state = shared
    } else {
      state = try makeSharedState()
      shared = state
    }
    do throws(LuaError) {
      return try load(in: state, only: position)
    } catch {
      // Whatever broke, the next load does not inherit it.
      shared = nil
      throw error
    }
  }

  /// A Lua state for the file's loads, with testing.lua and the file compiled in it.
  private func makeSharedState() throws(LuaError) -> SharedState {
    // Test code itself only drives simulations; give it room for many of them.
    let (budget, overflow) = limits.maxInstructions.multipliedReportingOverflow(by: 100)
    let testLimits = LuaLimits(
      maxInstructions: overflow ? Int.max : budget, maxMemory: limits.maxMemory, maxTime: limits.maxTime * 100)
    let runtime = try LuaRuntime(limits: testLimits)
    // The test file's own code is bounded, not measured: its calls are counted once they
    // have run a few milliseconds (the rules it drives count every instruction).
    runtime.countsLazily = true
    let prelude = try runtime.load(source: PackageResources.testing_lua, chunkName: "=[droprules test]")
    let sourceFiles = RuleSourceFiles()
    runtime.moduleReader = sourceFiles.module(named:)
    // Compiled in an environment of its own; each load gives it the load's.
    let chunk = try sourceFiles.loadFile(atPath: file, into: runtime, environment: try runtime.newEnvironment())
    sourceFiles.allowModules(in: directory)
    let functions = try runtime.keep(LuaTable(fields: hostFunctions(runtime)))
    var state = SharedState(runtime: runtime, prelude: prelude, chunk: chunk, hostFunctions: functions)
    state.tail = runtime.listing(of: chunk).flatMap(RegistrationTail.init)
    if let tail = state.tail {
      let lines = LuaTable(sequence: tail.lines.sorted().map { .integer(Int64($0)) })
      let makeSet = try runtime.load(
        source: "local set = {} for _, line in ipairs(...) do set[line] = true end return set",
        chunkName: "=[droprules registration tail]")
      if case .reference(let set) = try runtime.call(makeSet, [.table(lines)], keepingTables: true).first {
        state.tailLines = set
      }
    }
    return state
  }

  private func load(in state: SharedState, only position: Int?) throws(LuaError) -> LoadedFile {
    let runtime = state.runtime
    // What an earlier test's output and simulations held counted against the cap until
    // its test ended; a fresh load starts with none of it.
    runtime.releasePrintedOutput()
    runtime.heldBytes = 0
    let only: LuaValue = position.map { .integer(Int64($0 + 1)) } ?? .nil
    // Only a load for one test may stop early: a listing load runs the whole file.
    let tail: [LuaValue] =
      position != nil ? state.tailLines.map { [.reference($0), .reference(state.chunk)] } ?? [] : []
    let api = try runtime.call(state.prelude, [.reference(state.hostFunctions), only] + tail).first?.tableValue
    guard let api, case .function(let listTests) = api["tests"], case .function(let startTest) = api["startTest"],
      case .function(let finishTest) = api["finishTest"]
    else {
      throw LuaError(kind: .runtime, message: "the test API did not load")
    }
    let environment = try runtime.newEnvironment(globals: api["globals"].tableValue?.fields ?? [:])
    try runtime.rebind(state.chunk, to: environment)
    do { try runtime.call(state.chunk) } catch {
      guard !tail.isEmpty, error.kind == .runtime, case .function(let stoppedEarly) = api["stoppedEarly"] else {
        throw error
      }
      let answer = try runtime.call(stoppedEarly)
      guard answer.first?.isTruthy == true, let message = answer.last?.stringValue, error.message.hasPrefix(message)
      else { throw error }
      loadsStoppedEarly += 1
    }
    let list = try runtime.call(listTests).first?.tableValue
    var tests: [Int: LoadedFile.Test] = [:]
    for entry in list?.sequence ?? [] {
      guard let table = entry.tableValue, let name = table["name"].stringValue,
        let registeredAt = table["position"].intValue
      else { continue }
      var body: LuaReference?
      if case .function(let function) = table["body"], table["pending"].isNil { body = function }
      tests[registeredAt - 1] = LoadedFile.Test(
        name: name, line: table["line"].intValue, body: body, before: Self.functions(table["before"]),
        after: Self.functions(table["after"]))
    }
    var loaded = LoadedFile(runtime: runtime, tests: tests, startTest: startTest, finishTest: finishTest)
    if case .function(let listProperties) = api["properties"] {
      for entry in try runtime.call(listProperties).first?.tableValue?.sequence ?? [] {
        guard let table = entry.tableValue, let name = table["name"].stringValue,
          case .function(let check) = table["check"]
        else { continue }
        loaded.properties.append((name, check, table["line"].intValue))
      }
    }
    return loaded
  }

  private static func functions(_ list: LuaValue) -> [LuaReference] {
    (list.tableValue?.sequence ?? []).compactMap { value in
      guard case .function(let function) = value else { return nil }
      return function
    }
  }

  /// Moves what the test file's code printed so far into ``printed``, before a rule's
  /// line, so that the two keep their order. The lines still count against the test
  /// runtime's memory until the test ends.
  func collectPrinted(from runtime: LuaRuntime) {
    printed.append(contentsOf: runtime.takePrintedLines())
  }

  var directory: String {
    let folder = (file as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }
}
