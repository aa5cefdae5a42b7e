import DropRules
import DropRulesTools
import Foundation

/// One `*_test.lua` file: its tests, and the simulations they create.
///
/// Each test runs in a copy of the file loaded afresh (a new Lua state, the test API and
/// the file's top-level code run again), so nothing a test changes, replaces or patches
/// (`expect`, a library, a table of the file, a global) reaches the tests after it.
final class RuleTestFile {
  struct TestCase {
    var name: String
    var line: Int?
    /// Its place among the tests the file registers, which every load repeats.
    var position: Int
  }

  /// The test file loaded once: its own Lua state and the tests it registered.
  private struct LoadedFile {
    struct Test {
      var name: String
      var line: Int?
      var body: LuaReference
    }

    let runtime: LuaRuntime
    /// By position: all of them, or the one the load was for.
    let tests: [Int: Test]
  }

  let file: String
  private let limits: LuaLimits
  private let coverage: CoverageRecorder?
  /// A load no test has run in yet: the first test runs there, not in a load of its own.
  private var unused: LoadedFile?
  private var simulations: [Int: RuleHost] = [:]
  /// What the current test's simulations held after they last ran, counted against the
  /// test runtime's cap: each `scenario{}` is a rule host of its own.
  private var simulationBytes = 0
  /// Simulations whose last drag every source refused: its steps answer `cancel`, and
  /// its drop and cancel `refused`.
  private var refusedDrags: Set<Int> = []
  /// The drag each simulation runs now, by a serial its handle carries: a handle of an
  /// earlier drag cannot drive a later one.
  private var currentDrags: [Int: Int] = [:]
  private var nextDrag = 1
  private var nextSimulation = 1
  /// What the last test run printed: the test file's code and the rules it drove, in order.
  private(set) var printed = PrintedOutput()
  /// The rule files the tests' simulations loaded so far.
  private(set) var ruleFilesLoaded: Set<String> = []

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
      TestCase(name: test.name, line: test.line, position: position)
    }
  }

  /// Runs one test in a fresh load of the file; returns nil when it passed, else the
  /// failure as `file:line: message`.
  func run(_ test: TestCase) -> String? {
    printed = PrintedOutput()
    defer {
      simulations.removeAll()
      refusedDrags.removeAll()
      currentDrags.removeAll()
      simulationBytes = 0
    }
    let loaded: LoadedFile
    if let unused {
      loaded = unused
      self.unused = nil
    } else {
      do { loaded = try loadFile(only: test.position) } catch { return error.description }
    }
    guard let registered = loaded.tests[test.position], registered.name == test.name else {
      return "\(file): loaded again to run '\(test.name)', the file registered other tests; "
        + "register the same tests, in the same order, on every load"
    }
    // The load's own output (the file's top-level code ran again for this test) and the body's.
    defer { collectPrinted(from: loaded.runtime) }
    do {
      try loaded.runtime.call(registered.body)
      return nil
    } catch {
      var failure = error
      if failure.file == nil {
        failure.file = file
        failure.line = test.line
      }
      return failure.description
    }
  }

  /// A new Lua state with the test API, in which the test file has run.
  ///
  /// - Parameter position: the position of the one test to take, or nil for all.
  /// - Returns: the runtime and the tests the file registered, by position.
  /// - Throws: ``LuaError`` when the test API or the file does not load or run.
  private func loadFile(only position: Int?) throws(LuaError) -> LoadedFile {
    // Test code itself only drives simulations; give it room for many of them.
    let (budget, overflow) = limits.maxInstructions.multipliedReportingOverflow(by: 100)
    let testLimits = LuaLimits(
      maxInstructions: overflow ? Int.max : budget, maxMemory: limits.maxMemory, maxTime: limits.maxTime * 100)
    let runtime = try LuaRuntime(limits: testLimits)
    let prelude = try runtime.load(source: PackageResources.testing_lua, chunkName: "=[droprules test]")
    let only: LuaValue = position.map { .integer(Int64($0 + 1)) } ?? .nil
    let api = try runtime.call(prelude, [.table(LuaTable(fields: hostFunctions(runtime))), only]).first?.tableValue
    guard let api, case .function(let listTests) = api["tests"] else {
      throw LuaError(kind: .runtime, message: "the test API did not load")
    }
    let environment = try runtime.newEnvironment(globals: api["globals"].tableValue?.fields ?? [:])
    let sourceFiles = RuleSourceFiles()
    runtime.moduleReader = sourceFiles.module(named:)
    let chunk = try sourceFiles.loadFile(atPath: file, into: runtime, environment: environment)
    sourceFiles.allowModules(in: directory)
    try runtime.call(chunk)
    let list = try runtime.call(listTests).first?.tableValue
    var tests: [Int: LoadedFile.Test] = [:]
    for (offset, entry) in (list?.sequence ?? []).enumerated() {
      guard let table = entry.tableValue, let name = table["name"].stringValue,
        case .function(let body) = table["body"]
      else { continue }
      tests[position ?? offset] = LoadedFile.Test(name: name, line: table["line"].intValue, body: body)
    }
    return LoadedFile(runtime: runtime, tests: tests)
  }

  /// Moves what the test file's code printed so far into ``printed``, before a rule's
  /// line, so that the two keep their order. The lines still count against the test
  /// runtime's memory until the test ends.
  private func collectPrinted(from runtime: LuaRuntime) {
    printed.append(contentsOf: runtime.takePrintedLines())
  }

  private var directory: String {
    let folder = (file as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  private func simulation(_ value: LuaValue?) throws -> RuleHost {
    guard let id = value?.intValue, let host = simulations[id] else {
      throw LuaHostError("this simulation belongs to another test")
    }
    return host
  }

  private func hostFunctions(_ runtime: LuaRuntime) -> [String: LuaValue] {
    [
      "scenario": runtime.function { [unowned self, unowned runtime] arguments in
        failable { () throws -> [LuaValue] in
          let spec: JSONValue
          switch (arguments.first ?? .nil).json() {
          case .success(let value): spec = value
          case .failure(let error): throw ScenarioError(file: file, path: "scenario", message: error.description)
          }
          let decoder = ScenarioDecoder(file: file, baseDirectory: directory, firstIndex: 1)
          let scenario: Scenario
          scenario = try decoder.decode(spec, defaultRules: [defaultRuleFile], requiresDrag: false)
          var runner = ScenarioRunner(limits: limits)
          runner.lineObserver = coverage.map { recorder in { recorder.record(file: $0, line: $1) } }
          collectPrinted(from: runtime)
          ruleFilesLoaded.formUnion(scenario.rules)
          let host = try runner.makeHost(for: scenario)
          printed.append(contentsOf: host.loadOutput)
          host.engine.printObserver = { [unowned self, unowned runtime] line in
            collectPrinted(from: runtime)
            printed.append(line)
          }
          guard host.memoryInUse <= runtime.memoryAvailable else {
            throw LuaHostError.memoryLimit(
              runtime.memoryLimitMessage
                + " (each scenario{} is a rule host of its own, and this test made \(simulations.count + 1))")
          }
          simulationBytes += host.memoryInUse
          runtime.heldBytes = simulationBytes
          let id = nextSimulation
          nextSimulation += 1
          simulations[id] = host
          return [.integer(Int64(id))]
        }
      },
      "drag": runtime.function { [unowned self, unowned runtime] arguments in
        failable { () throws -> [LuaValue] in
          let host = try simulation(arguments.first)
          var fields: [String: JSONValue] = [:]
          if arguments.count > 1, case .success(let items) = arguments[1].json() { fields["items"] = items }
          if arguments.count > 2, case .success(.object(let options)) = arguments[2].json() {
            fields.merge(options) { first, _ in first }
          }
          let decoder = ScenarioDecoder(file: file, baseDirectory: directory, firstIndex: 1)
          let request = try decoder.decodeDrag(.object(fields), board: host.board)
          let start = try sharingTheCap(with: host, of: runtime) { () throws -> DragStart in
            if host.isDragging { _ = try host.cancel() }
            return try host.beginDrag(request)
          }
          let id = arguments.first?.intValue ?? 0
          if start.isRefused { refusedDrags.insert(id) } else { refusedDrags.remove(id) }
          let serial = nextDrag
          nextDrag += 1
          currentDrags[id] = serial
          return [.table(LuaTable(sequence: start.refused.map(LuaValue.string))), .integer(Int64(serial))]
        }
      },
      "step": runtime.function { [unowned self, unowned runtime] arguments in
        failable { () throws -> [LuaValue] in
          let host = try simulation(arguments.first)
          guard arguments.count > 1, arguments[1].intValue == currentDrags[arguments.first?.intValue ?? 0] else {
            throw LuaHostError("this drag is over: a later sim:drag on the same simulation replaced it")
          }
          let values = Array(arguments.dropFirst(3))
          let kind = arguments.count > 2 ? arguments[2].stringValue : nil
          if !host.isDragging, refusedDrags.contains(arguments.first?.intValue ?? 0) {
            let ends = kind == "drop" || kind == "cancel"
            return [.string(ends ? DropOutcome.refused.rawValue : Proposal.cancel.rawValue)]
          }
          let step = try Self.dragStep(kind, values)
          switch try sharingTheCap(with: host, of: runtime, { () throws -> DragStepResult in try host.perform(step) }) {
          case .proposal(let proposal): return [.string(proposal.rawValue)]
          case .outcome(let outcome): return [.string(outcome.rawValue)]
          }
        }
      },
      "items": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let host = try simulation(arguments.first)
          let id = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
          guard host.board.target(id) != nil else { throw LuaHostError("no target '\(id)' in this scenario") }
          return [.table(LuaTable(sequence: host.board.items(in: id).map(LuaValue.string)))]
        }
      },
      // sim:target(id) as committed; drag:target(id), with the drag's serial, as the
      // drag's handlers see it now.
      "target": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let host = try simulation(arguments.first)
          let id = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
          let duringDrag = arguments.count > 2 && !arguments[2].isNil
          if duringDrag, arguments[2].intValue != currentDrags[arguments.first?.intValue ?? 0] {
            throw LuaHostError("this drag is over: a later sim:drag on the same simulation replaced it")
          }
          let board = duringDrag ? host.engine.currentBoard : host.board
          guard var target = board.target(id) else { throw LuaHostError("no target '\(id)' in this scenario") }
          if duringDrag { target.data = host.engine.data(of: id) ?? target.data }
          return [
            .table(
              LuaTable(fields: [
                "id": .string(target.id), "type": .string(target.type), "data": LuaValue(json: .object(target.data)),
                "items": .table(LuaTable(sequence: target.items.map(LuaValue.string))),
              ]))
          ]
        }
      },
      "errors": runtime.function { [unowned self] arguments in
        let host = try simulation(arguments.first)
        return [
          .table(
            LuaTable(
              sequence: host.diagnostics.map { diagnostic in
                var fields: [String: LuaValue] = ["message": .string(diagnostic.message)]
                fields["file"] = diagnostic.file.map(LuaValue.string)
                fields["line"] = diagnostic.line.map { .integer(Int64($0)) }
                fields["handler"] = diagnostic.handler.map { .string($0.rawValue) }
                fields["target"] = diagnostic.target.map(LuaValue.string)
                fields["step"] = diagnostic.step.map { .integer(Int64($0)) }
                return .table(LuaTable(fields: fields))
              }))
        ]
      },
    ]
  }

  /// Runs `body`, which drives `host`, with everything else the test holds (its own
  /// runtime and its other simulations) counted against the host's cap, then counts
  /// what the simulations hold now against the test's: one cap covers them all, however
  /// much a simulation grows after it was made.
  private func sharingTheCap<Result>(
    with host: RuleHost, of runtime: LuaRuntime, _ body: () throws -> Result
  ) throws -> Result {
    host.memoryHeldElsewhere = max(0, runtime.memoryInUse - host.memoryInUse)
    defer {
      host.memoryHeldElsewhere = 0
      simulationBytes = simulations.values.reduce(0) { $0 + $1.memoryInUse }
      runtime.heldBytes = simulationBytes
    }
    return try body()
  }

  /// Turns a thrown error into `nil, message`, which the Lua side raises at the test's line.
  private func failable(_ body: () throws -> [LuaValue]) -> [LuaValue] {
    do {
      return try body()
    } catch let error as ScenarioError {
      // The Lua error already names the test file and line; the path says the rest.
      return [.nil, .string(error.path.isEmpty ? error.message : "\(error.path): \(error.message)")]
    } catch ScenarioRunError.refusedRuleFile(let refusal) {
      return [.nil, .string(refusal.reason)]
    } catch {
      return [.nil, .string("\(error)")]
    }
  }
}

extension RuleTestFile {
  /// The step a test's `drag:over(...)`, `drag:at(...)`, ... asks for, from its kind and
  /// arguments: tests build steps, and the host performs them like any other.
  static func dragStep(_ kind: String?, _ values: [LuaValue]) throws -> DragStep {
    switch kind {
    case "over":
      guard let id = values.first?.stringValue else { throw LuaHostError("drag:over expects a target id") }
      return .over(id, index: values.count > 1 ? values[1].intValue : nil)
    case "at":
      guard values.count >= 2, let x = values[0].doubleValue, let y = values[1].doubleValue else {
        throw LuaHostError("drag:at expects two numbers")
      }
      return .at(Point(x: x, y: y))
    case "modifiers":
      let names = values.first?.tableValue?.sequence.compactMap(\.stringValue) ?? []
      let modifiers = try names.map { name throws -> Modifier in
        guard let modifier = Modifier(rawValue: name) else {
          throw LuaHostError("unknown modifier '\(name)'; expected option, command, shift or control")
        }
        return modifier
      }
      return .modifiers(Set(modifiers))
    case "outside":
      let accepts = values.first?.tableValue?.sequence.compactMap(\.stringValue).map { TypeIdentifier($0) }
      var operation = DragOperation.copy
      if values.count > 1, !values[1].isNil {
        guard let name = values[1].stringValue, let parsed = DragOperation(rawValue: name) else {
          throw LuaHostError("drag:outside: operation must be \"copy\" or \"move\"")
        }
        operation = parsed
      }
      return .outside(accepts: accepts ?? ["public.item"], operation: operation)
    case "drop": return .drop
    case "cancel": return .cancel
    default: throw LuaHostError("unknown drag step '\(kind ?? "nil")'")
    }
  }
}
