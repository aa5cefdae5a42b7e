import DropRules
import DropRulesLua
import DropRulesModel
import DropRulesTools

/// The Swift functions behind testing.lua: simulations (`scenario{}`), their drags and
/// what a test reads of them. Each returns `nil, message` on misuse, which the Lua side
/// raises at the test's line.
extension RuleTestFile {
  func hostFunctions(_ runtime: LuaRuntime) -> [String: LuaValue] {
    [
      "scenario": runtime.function { [unowned self, unowned runtime] arguments in
        failable { () throws -> [LuaValue] in try makeSimulation(arguments.first ?? .nil, runtime: runtime) }
      },
      "drag": runtime.function { [unowned self, unowned runtime] arguments in
        failable { () throws -> [LuaValue] in
          let simulation = try simulation(arguments.first)
          let host = simulation.host
          var fields: [String: JSONValue] = [:]
          if arguments.count > 1, case .success(let items) = arguments[1].json() { fields["items"] = items }
          if arguments.count > 2, case .success(.object(let options)) = arguments[2].json() {
            fields.merge(options) { first, _ in first }
          }
          let decoder = ScenarioDecoder(file: file, baseDirectory: directory, firstIndex: 1)
          let request = try decoder.decodeDrag(.object(fields), board: host.board)
          let start = try sharingTheCap(with: host, of: runtime) { () throws -> DragStart in
            if host.isDragging {
              _ = try host.cancel()
              simulation.logCalls(newDrag: false)
            }
            return try host.beginDrag(request)
          }
          simulation.logCalls(newDrag: true)
          simulation.dragRefused = start.isRefused
          let serial = nextDrag
          nextDrag += 1
          simulation.dragSerial = serial
          return [.table(LuaTable(sequence: start.refused.map(LuaValue.string))), .integer(Int64(serial))]
        }
      },
      "step": runtime.function { [unowned self, unowned runtime] arguments in
        failable { () throws -> [LuaValue] in
          let simulation = try simulation(arguments.first, drag: arguments.count > 1 ? arguments[1] : .nil)
          let host = simulation.host
          let values = Array(arguments.dropFirst(3))
          let kind = arguments.count > 2 ? arguments[2].stringValue : nil
          if !host.isDragging, simulation.dragRefused {
            let ends = kind == "drop" || kind == "cancel"
            return [.string(ends ? DropOutcome.refused.rawValue : Proposal.cancel.rawValue)]
          }
          let step = try Self.dragStep(kind, values)
          if case .over(let id, _) = step, host.board.target(id) == nil {
            throw LuaHostError("drag:over: " + ScenarioDecoder.noTarget(id, on: host.board))
          }
          let result = try sharingTheCap(with: host, of: runtime) { () throws -> DragStepResult in
            try host.perform(step)
          }
          simulation.logCalls(newDrag: false)
          switch result {
          case .proposal(let proposal): return [.string(proposal.rawValue)]
          case .outcome(let outcome): return [.string(outcome.rawValue)]
          }
        }
      },
      "lastStep": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let simulation = try simulation(arguments.first, drag: arguments.count > 1 ? arguments[1] : .nil)
          guard let step = simulation.host.lastStep else { return [] }
          return [LuaValue(json: TraceReport.json(step: step))]
        }
      },
      "items": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let host = try simulation(arguments.first).host
          let id = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
          guard host.board.target(id) != nil else { throw LuaHostError(ScenarioDecoder.noTarget(id, on: host.board)) }
          return [.table(LuaTable(sequence: host.board.items(in: id).map(LuaValue.string)))]
        }
      },
      // sim:target(id) as committed; drag:target(id), with the drag's serial, as the
      // drag's handlers see it now.
      "target": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let duringDrag = arguments.count > 2 && !arguments[2].isNil
          let host = try simulation(arguments.first, drag: duringDrag ? arguments[2] : .nil).host
          let id = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
          let board = duringDrag ? host.engine.currentBoard : host.board
          guard var target = board.target(id) else { throw LuaHostError(ScenarioDecoder.noTarget(id, on: host.board)) }
          if duringDrag { target.data = host.engine.data(of: id) ?? target.data }
          var fields: [String: LuaValue] = [
            "id": .string(target.id), "type": .string(target.type), "data": LuaValue(json: .object(target.data)),
            "items": .table(LuaTable(sequence: target.items.map(LuaValue.string))),
            "collapsed": .boolean(target.collapsed),
          ]
          fields["parent"] = target.parent.map(LuaValue.string)
          return [.table(LuaTable(fields: fields))]
        }
      },
      // The committed board as plain tables, for the file's properties.
      "snapshot": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in [BoardSnapshot.lua(try simulation(arguments.first).host.board)] }
      },
      "item": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let host = try simulation(arguments.first).host
          let id = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
          let board = host.board
          // Items come and go (a trash deletes them): one that is gone is nil, not an error.
          guard let item = board.item(id) else { return [.nil] }
          var fields: [String: LuaValue] = ["id": .string(item.id), "data": LuaValue(json: .object(item.data))]
          fields["name"] = item.name.map(LuaValue.string)
          fields["opens"] = item.opens.map(LuaValue.string)
          if let place = board.place(of: id) {
            fields["container"] = .string(place.container)
            fields["index"] = .integer(Int64(place.index))
          }
          return [.table(LuaTable(fields: fields))]
        }
      },
      // sim.errors, or with `take`, sim:takeErrors(): the errors no test took yet.
      "errors": runtime.function { [unowned self] arguments in
        let simulation = try simulation(arguments.first)
        let errors = simulation.untakenErrors
        if arguments.count > 1, arguments[1].isTruthy { simulation.errorsTaken = simulation.host.diagnostics.count }
        return [.table(LuaTable(sequence: errors.map(Self.luaDiagnostic)))]
      },
      "spyFrom": runtime.function { [unowned self] arguments in
        failable { () throws -> [LuaValue] in
          let simulation = try simulation(arguments.first)
          let name = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
          guard Handler(rawValue: name) != nil else {
            let names = Handler.allCases.map(\.rawValue)
            let suggestion = DidYouMean.suggestion(for: name, among: names).map { "; did you mean \($0)?" } ?? ""
            throw LuaHostError("sim:spy: '\(name)' is no handler\(suggestion)")
          }
          return [.integer(Int64(simulation.calls.count))]
        }
      },
      // A spy's calls: those of its handler from its making on, narrowed to a target id
      // or a target type when it names one.
      "calls": runtime.function { [unowned self] arguments in
        let simulation = try simulation(arguments.first)
        let from = max(0, min(arguments.count > 1 ? arguments[1].intValue ?? 0 : 0, simulation.calls.count))
        let handler = arguments.count > 2 ? arguments[2].stringValue : nil
        let target = arguments.count > 3 ? arguments[3].stringValue : nil
        let type = arguments.count > 4 ? arguments[4].stringValue : nil
        let calls = simulation.calls[from...].filter { spied in
          spied.call.handler.rawValue == handler && (target == nil || spied.call.target == target)
            && (type == nil || spied.targetType == type)
        }
        return [.table(LuaTable(sequence: calls.map(Self.luaCall)))]
      },
    ]
  }

  /// Loads a `scenario{}` into a rule host of its own.
  private func makeSimulation(_ specValue: LuaValue, runtime: LuaRuntime) throws -> [LuaValue] {
    guard !isLoading else {
      throw LuaHostError(
        "scenario{} makes a rule host for one test: call it in the test (or in before_each), not at the file's "
          + "top level or in a describe, where every test would share its rule state")
    }
    let spec: JSONValue
    switch specValue.json() {
    case .success(let value): spec = value
    case .failure(let error): throw ScenarioError(file: file, path: "scenario", message: error.description)
    }
    // A test drives its drags itself: a drag, steps or expect here would not run, and a
    // test must not look as if it checked them.
    if case .object(let fields) = spec, let key = ["drag", "steps", "expect"].first(where: { fields[$0] != nil }) {
      throw LuaHostError(
        "scenario{}: '\(key)' does not run in a test; drive the drag with sim:drag(...) and its steps, check with "
          + "expect(...), or keep the whole drag in a .scenario.json file (a board can be shared: board = "
          + "\"desk.board.json\")")
    }
    let decoder = ScenarioDecoder(file: file, baseDirectory: directory, firstIndex: 1)
    let scenario = try decoder.decode(spec, defaultRules: [defaultRuleFile], requiresDrag: false)
    var runner = ScenarioRunner(limits: limits)
    runner.lineObserver = coverage.map { recorder in { recorder.record(file: $0, line: $1) } }
    collectPrinted(from: runtime)
    ruleFilesLoaded.formUnion(scenario.rules)
    let host = try runner.makeHost(for: scenario)
    printed.append(contentsOf: host.loadOutput)
    host.engine.observers.printed = { [unowned self, unowned runtime] line in
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
    simulations[id] = TestSimulation(host: host)
    return [.integer(Int64(id))]
  }

  /// The simulation a handle names; with a `drag` serial, only while that drag is its
  /// current one.
  private func simulation(_ value: LuaValue?, drag: LuaValue = .nil) throws -> TestSimulation {
    guard let id = value?.intValue, let simulation = simulations[id] else {
      throw LuaHostError(
        "this simulation belongs to another test: each test makes its own with scenario{} (in the test, or in "
          + "before_each)")
    }
    if !drag.isNil, drag.intValue != simulation.dragSerial {
      throw LuaHostError("this drag is over: a later sim:drag on the same simulation replaced it")
    }
    return simulation
  }

  private static func luaDiagnostic(_ diagnostic: Diagnostic) -> LuaValue {
    var fields: [String: LuaValue] = ["message": .string(diagnostic.message)]
    fields["file"] = diagnostic.file.map(LuaValue.string)
    fields["line"] = diagnostic.line.map { .integer(Int64($0)) }
    fields["handler"] = diagnostic.handler.map { .string($0.rawValue) }
    fields["target"] = diagnostic.target.map(LuaValue.string)
    fields["step"] = diagnostic.step.map { .integer(Int64($0)) }
    return .table(LuaTable(fields: fields))
  }

  /// `{ handler, target, item, step, result, error }`: `result` as the JSON trace has it.
  private static func luaCall(_ spied: TestSimulation.SpiedCall) -> LuaValue {
    var fields: [String: LuaValue] = [
      "handler": .string(spied.call.handler.rawValue), "target": .string(spied.call.target),
      "step": .integer(Int64(spied.step)), "error": .boolean(spied.call.value == nil),
    ]
    fields["item"] = spied.call.item.map(LuaValue.string)
    if let value = spied.call.value { fields["result"] = LuaValue(json: TraceReport.json(value)) }
    return .table(LuaTable(fields: fields))
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
      simulationBytes = simulations.values.reduce(0) { $0 + $1.host.memoryInUse }
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
