import DropRules
import DropRulesLua
import DropRulesTools
import Foundation

/// One `*_test.lua` file: its tests, and the simulations they create.
///
/// The file loads once, as busted loads a spec file: its top level registers the tests,
/// which then run in order in that one Lua state, so the tests of a `describe` share its
/// upvalues. `before_each`/`after_each` run around each test of their group and
/// `setup`/`teardown` once around the tests of it that run. Every `scenario{}` is a
/// fresh rule host with fresh rule states, so no rule state passes between tests.
///
/// A test a limit stopped (instructions, time, memory) may have stopped the file's
/// state, or the test API's own Lua, half-way: the tests after it run in a new load of
/// the file, and its failure says so.
final class RuleTestFile {
  struct TestCase {
    var name: String
    var line: Int?
    /// Its place among the tests the file registers.
    var position: Int
    /// Registered with `pending`: listed, never run.
    var isPending = false
    /// The groups it belongs to, the file's first, then each `describe` outermost first.
    var groups: [Int] = []
  }

  /// How a test ended: its status and why it failed, one entry per failure.
  struct Outcome {
    var status: TestCaseResult.Status
    var failures: [String] = []
  }

  /// The test file loaded: its Lua state and what it registered.
  struct LoadedFile {
    struct Test {
      var name: String
      var line: Int?
      var body: LuaReference?
      /// The before_each and after_each hooks around it, in the order they run.
      var before: [LuaReference]
      var after: [LuaReference]
      var groups: [Int]
    }

    /// A `describe` block, or the file itself (named nil).
    struct Group {
      var name: String?
      var setup: [LuaReference]
      var teardown: [LuaReference]
    }

    let runtime: LuaRuntime
    /// By position, in the order the file registered them.
    let tests: [Test]
    let groups: [Group]
    /// The file's `property` declarations, in order.
    var properties: [(name: String, check: LuaReference, line: Int?)] = []
    /// Mark the start and the end of a test: an expectation without a matcher fails it.
    let startTest: LuaReference
    let finishTest: LuaReference
    /// Run after a test's body whatever it did (its `finally` blocks), and when it is
    /// over (its spies and stubs come off).
    let runFinalizers: LuaReference
    let endTest: LuaReference
    /// Why the test just run called `pending()` inside its body, once; nil when it did not.
    let takePending: LuaReference
  }

  let file: String
  let limits: LuaLimits
  let coverage: CoverageRecorder?
  /// The state the tests run in; nil before the first load and after a test a limit stopped.
  private(set) var loaded: LoadedFile?
  /// The groups whose setup ran in the current state, with the failures it had.
  private var setUp: [Int: [String]] = [:]
  /// For each group, the position of the last test of this run that belongs to it: its
  /// teardown runs after that test.
  private var lastTestOf: [Int: Int] = [:]
  /// True while the file's top level runs, where `scenario{}` is refused: a rule host
  /// made there would pass its rule state from test to test.
  private(set) var isLoading = false
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

  /// The folder `require` looks in first (and in its `src/`), as busted's default path
  /// has it: the project's root, where `droprules test` runs; nil for only beside the file.
  let moduleRoot: String?

  init(file: String, limits: LuaLimits, coverage: CoverageRecorder?, moduleRoot: String? = nil) {
    self.file = file
    self.limits = limits
    self.coverage = coverage
    self.moduleRoot = moduleRoot
  }

  /// The rule file a test file tests by default: `calendar_test.lua` -> `calendar.lua`
  /// (and `calendar_spec.lua` -> `calendar.lua`).
  var defaultRuleFile: String { FileDiscovery.testedFile(of: file) ?? file }

  /// Runs the test file's top level, which registers its tests; what it printed goes
  /// to the first test that runs.
  func load() throws(LuaError) -> [TestCase] {
    let loaded = try loadFile()
    self.loaded = loaded
    setUp = [:]
    return loaded.tests.enumerated().map { position, test in
      TestCase(name: test.name, line: test.line, position: position, isPending: test.body == nil, groups: test.groups)
    }
  }

  /// Says which tests will run, in their order: each group's teardown runs after the
  /// last of them in it. Call before the first ``run(_:)``.
  func willRun(_ tests: [TestCase]) {
    lastTestOf = [:]
    for test in tests where !test.isPending {
      for group in test.groups { lastTestOf[group] = test.position }
    }
  }

  /// Runs one test in the file's state: the setup of each of its groups not set up yet,
  /// its before_each hooks, its body, its after_each hooks (also after a failure), the
  /// teardown of each group it is the last test of; then the checks every test gets:
  /// each `expect` has a matcher, and every rule error was taken (`sim:takeErrors()`).
  func run(_ test: TestCase) -> Outcome {
    printed = PrintedOutput()
    defer {
      simulations.removeAll()
      simulationBytes = 0
    }
    if test.isPending { return Outcome(status: .pending) }
    if loaded == nil {
      // A limit stopped an earlier test: this one starts a new load of the file.
      do { _ = try load() } catch { return Outcome(status: .failed, failures: [error.description]) }
    }
    guard let loaded, test.position < loaded.tests.count, loaded.tests[test.position].name == test.name,
      let body = loaded.tests[test.position].body
    else {
      return Outcome(
        status: .failed,
        failures: [
          "\(file): loaded again after a limit stopped a test, the file registered other tests; "
            + "register the same tests, in the same order, on every load"
        ])
    }
    let registered = loaded.tests[test.position]
    let runtime = loaded.runtime
    // What an earlier test's output and simulations held counted against the cap until
    // it ended.
    runtime.releasePrintedOutput()
    runtime.heldBytes = 0
    defer { collectPrinted(from: runtime) }
    var failures: [String] = []
    var stoppedByLimit = false
    func call(_ function: LuaReference) -> Bool {
      do {
        try runtime.call(function)
        return true
      } catch {
        if error.kind != .runtime { stoppedByLimit = true }
        var failure = error
        if failure.file == nil {
          failure.file = file
          failure.line = test.line
        }
        failures.append(failure.description)
        return false
      }
    }
    _ = call(loaded.startTest)
    // Each group's setup runs once, outermost first; every test of a group whose setup
    // failed fails with its message.
    for group in registered.groups where setUp[group] == nil {
      let start = failures.count
      for hook in loaded.groups[group].setup where failures.count == start { _ = call(hook) }
      setUp[group] = failures[start...].map { "setup of \(name(of: group, in: loaded)) failed: \($0)" }
      failures.removeSubrange(start...)
    }
    let setUpFailures = registered.groups.flatMap { setUp[$0] ?? [] }
    var calledPending = false
    if setUpFailures.isEmpty {
      if registered.before.allSatisfy(call) {
        let before = failures.count
        _ = call(body)
        // busted's pending() inside a test stops it there: what it raised is no failure.
        if (try? runtime.call(loaded.takePending).first?.stringValue) != nil {
          calledPending = true
          failures.removeSubrange(before...)
        }
      }
      _ = call(loaded.runFinalizers)
      for hook in registered.after { _ = call(hook) }
    } else {
      failures += setUpFailures
    }
    tearDownGroups(endingWith: test, in: loaded, call: call)
    _ = call(loaded.endTest)
    if failures.isEmpty { _ = call(loaded.finishTest) }
    failures += untakenErrors()
    if stoppedByLimit {
      self.loaded = nil
      failures.append("a limit stopped this test: the tests after it run in a new load of \(file)")
    }
    return Outcome(status: failures.isEmpty ? (calledPending ? .pending : .passed) : .failed, failures: failures)
  }

  /// Runs, innermost first, the teardown hooks of the groups this test is the last of,
  /// where their setup ran without failing.
  private func tearDownGroups(endingWith test: TestCase, in loaded: LoadedFile, call: (LuaReference) -> Bool) {
    for group in test.groups.reversed() where lastTestOf[group] == test.position {
      guard setUp[group] == [] else { continue }
      for hook in loaded.groups[group].teardown { _ = call(hook) }
    }
  }

  private func name(of group: Int, in loaded: LoadedFile) -> String {
    loaded.groups[group].name.map { "'\($0)'" } ?? file
  }

  /// A failure for each rule error the test did not take, `file:line: message` first (so
  /// every report, JSON's `file` and `line` too, locates it): a handler that crashed
  /// cannot pass a test that expected what its failure gives.
  private func untakenErrors() -> [String] {
    simulations.sorted { $0.key < $1.key }.flatMap { _, simulation in
      simulation.untakenErrors.map { "\($0.description); a rule error the test did not take with sim:takeErrors()" }
    }
  }

  /// A new Lua state with the test API, the file run in it once.
  ///
  /// - Throws: ``LuaError`` when the test API or the file does not load or run.
  func loadFile() throws(LuaError) -> LoadedFile {
    // Test code itself only drives simulations; give it room for many of them.
    let (budget, overflow) = limits.maxInstructions.multipliedReportingOverflow(by: 100)
    let testLimits = LuaLimits(
      maxInstructions: overflow ? Int.max : budget, maxMemory: limits.maxMemory, maxTime: limits.maxTime * 100)
    let runtime = try LuaRuntime(limits: testLimits)
    // The test file's own code is bounded, not measured: its calls are counted once they
    // have run a few milliseconds (the rules it drives count every instruction).
    runtime.countsLazily = true
    let functions = try runtime.keep(LuaTable(fields: hostFunctions(runtime)))
    let api = try Self.testAPI(in: runtime, hostFunctions: .reference(functions))
    guard let api, case .function(let listTests) = api["tests"], case .function(let listGroups) = api["groups"],
      case .function(let startTest) = api["startTest"], case .function(let finishTest) = api["finishTest"],
      case .function(let runFinalizers) = api["runFinalizers"], case .function(let endTest) = api["endTest"],
      case .function(let takePending) = api["takePending"]
    else {
      throw LuaError(kind: .runtime, message: "the test API did not load")
    }
    let sourceFiles = RuleSourceFiles()
    runtime.moduleReader = sourceFiles.module(named:)
    // As busted's path has it: modules from the project's root and its src/ first, then
    // beside the test file.
    if let moduleRoot {
      sourceFiles.allowModules(in: moduleRoot)
      sourceFiles.allowModules(in: (moduleRoot as NSString).appendingPathComponent("src"))
    }
    let environment = try runtime.newEnvironment(
      globals: api["globals"].tableValue?.fields ?? [:], modules: api["modules"])
    let chunk = try sourceFiles.loadFile(atPath: file, into: runtime, environment: environment)
    sourceFiles.allowModules(in: directory)
    runtime.releasePrintedOutput()
    isLoading = true
    defer { isLoading = false }
    try runtime.call(chunk)
    let tests = (try runtime.call(listTests).first?.tableValue?.sequence ?? []).map { entry in
      let table = entry.tableValue
      var body: LuaReference?
      if case .function(let function)? = table?["body"], table?["pending"].isNil != false { body = function }
      return LoadedFile.Test(
        // Names reach every report and --filter: a megabyte name is cut like a message.
        name: (table?["name"].stringValue ?? "?").capped(.presentation), line: table?["line"].intValue, body: body,
        before: Self.functions(table?["before"] ?? .nil), after: Self.functions(table?["after"] ?? .nil),
        groups: (table?["groups"].tableValue?.sequence ?? []).compactMap { $0.intValue.map { $0 - 1 } })
    }
    let groups = (try runtime.call(listGroups).first?.tableValue?.sequence ?? []).map { entry in
      LoadedFile.Group(
        name: entry.tableValue?["name"].stringValue, setup: Self.functions(entry.tableValue?["setup"] ?? .nil),
        teardown: Self.functions(entry.tableValue?["teardown"] ?? .nil))
    }
    var loaded = LoadedFile(
      runtime: runtime, tests: tests, groups: groups, startTest: startTest, finishTest: finishTest,
      runFinalizers: runFinalizers, endTest: endTest, takePending: takePending)
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

  /// The test API (testing.lua, with busted's vocabulary from busted.lua) loaded in
  /// `runtime` over the host's functions.
  package static func testAPI(in runtime: LuaRuntime, hostFunctions: LuaValue) throws(LuaError) -> LuaTable? {
    let prelude = try runtime.load(source: PackageResources.testing_lua, chunkName: "=[droprules test]")
    let busted = try runtime.load(source: PackageResources.busted_lua, chunkName: "=[droprules busted]")
    let bustedAPI = try runtime.call(busted, keepingTables: true).first ?? .nil
    return try runtime.call(prelude, [hostFunctions, bustedAPI]).first?.tableValue
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
