import Foundation

/// The loaded rule files, each in a Lua state of its own (``RuleFileState``): what the
/// engine calls.
///
/// A state per file makes isolation structural rather than a matter of sandbox
/// discipline: one file's globals, memory and collector are not another's. A file that
/// fills its memory cap fails its own calls only; one whose tables make its collector
/// slow stalls the host while it runs, unless it runs in a worker process
/// (``IsolatedRuleFile``, with ``LuaLimits/workerCommand``), which the host can stop. The rule set spans the files (a type is named by one file only, and
/// the `*` fallback serves every file's targets); each rule id maps to the file that
/// declared it and that file's own id for it.
final class RuleFiles: RuleCalling {
  /// The limits each file's state gets.
  let limits: LuaLimits
  /// One state per loaded file, in load order.
  private(set) var states: [RuleFileState] = [] {
    didSet { unretainedStates = states.map(Unmanaged.passUnretained) }
  }
  /// The same states, called on every pointer step without retaining them (``states``
  /// keeps them alive).
  @exclusivity(unchecked) private var unretainedStates: [Unmanaged<RuleFileState>] = []
  private(set) var ruleSet = RuleSet()
  /// The file serving each target type, shared with every state: what its writes check.
  private let typeOwners = TargetTypeOwners()
  /// The files that run in worker processes (``LuaLimits/workerCommand``), in load order.
  private var isolated: [IsolatedRuleFile] = []
  /// For each rule id of ``ruleSet``: the state holding the rule (or, when negative, the
  /// isolated file at `-1 - state`), and the rule's id there.
  @exclusivity(unchecked) private var owners: [(state: Int, rule: RuleID)] = []
  /// How many files loaded, isolated or not: each one's place, as ``typeOwners`` names it.
  private var filesLoaded = 0
  /// The state whose handler ran last: what it printed is taken next.
  @exclusivity(unchecked) private var lastCalled = 0
  /// Observes executed lines of every file's state (coverage).
  var lineObserver: ((String, Int) -> Void)? {
    didSet { for state in states { state.runtime.lineObserver = lineObserver } }
  }
  /// Bytes held outside the host that count against each state's cap (see
  /// ``RuleHost/memoryHeldElsewhere``).
  /// Where rule files may lie (real paths), checked on each file as it is opened; nil
  /// for anywhere.
  var ruleFileRoots: [String]?
  var memoryHeldElsewhere = 0 {
    didSet { for state in states { state.runtime.sharedAccountBytes = memoryHeldElsewhere } }
  }
  /// What files printed while loading, not yet taken.
  private var loadOutput: [String] = []

  init(limits: LuaLimits) {
    self.limits = limits
  }

  /// Bytes the files' states hold: their Lua heaps and what each keeps for its rules.
  var memoryInUse: Int {
    states.reduce(0) { $0 + $1.runtime.ownMemoryInUse } + isolated.reduce(0) { $0 + $1.memoryInUse }
  }

  /// Loads rule files, each into a new state, and returns every problem, warnings
  /// included. All files are read; their top levels declare types through `view`.
  func load(paths: [String], in view: any RuleView) -> [RuleProblem] {
    var problems: [RuleProblem] = []
    var accepted: [(path: String, targetType: String, types: [TypeIdentifier])] = []
    for path in paths {
      if limits.workerCommand != nil, let engine = view as? DragEngine {
        let (fileProblems, fileAccepted) = loadIsolated(path: path, in: engine)
        problems += fileProblems
        accepted += fileAccepted.map { (path, $0.targetType, $0.types) }
        continue
      }
      let state: RuleFileState
      do {
        state = try RuleFileState(limits: limits)
      } catch {
        problems.append(RuleProblem(error, file: path))
        continue
      }
      state.typeOwners = typeOwners
      state.loadOrder = filesLoaded
      state.sourceFiles.confinement = ruleFileRoots
      state.runtime.lineObserver = lineObserver
      state.runtime.sharedAccountBytes = memoryHeldElsewhere
      let (fileRules, fileProblems, fileAccepted) = state.load(path: path, in: view)
      loadOutput += state.takePrintedLines()
      problems += fileProblems
      accepted += fileAccepted.map { (path, $0.targetType, $0.types) }
      var kept = false
      for rule in fileRules {
        do {
          try ruleSet.add(rule)
          try state.add(rule)
          owners.append((states.count, state.ruleSet.all.count - 1))
          typeOwners.record(rule.targetType, servedBy: filesLoaded, at: path)
          kept = true
        } catch {
          // A second rule for a type: the line of its key, looked up only for the error.
          var problem = error
          if problem.line == nil, let text = try? String(contentsOfFile: path, encoding: .utf8) {
            problem.line = RuleFileLoader.line(ofKey: rule.targetType, in: text)
          }
          problems.append(problem)
        }
      }
      // A file with no rule kept holds nothing the engine can call: its state goes.
      if kept {
        states.append(state)
        filesLoaded += 1
      }
    }
    problems += undeclaredTypeWarnings(accepted, types: view.types)
    return problems
  }

  /// Loads a file into a worker process of its own; its rules join the set as others' do.
  private func loadIsolated(path: String, in engine: DragEngine) -> ([RuleProblem], [AcceptedTypes]) {
    let file = IsolatedRuleFile(
      path: path, limits: limits, loadOrder: filesLoaded, confinement: ruleFileRoots, owners: typeOwners)
    var (rules, problems, accepted) = file.load(in: engine)
    loadOutput += file.takePrintedLines()
    var kept = false
    for (index, summary) in rules.enumerated() {
      let rule = Rule(
        targetType: summary.targetType, accepts: summary.accepts, handlers: summary.handlers, file: path,
        effects: summary.effects)
      do {
        try ruleSet.add(rule)
        owners.append((-1 - isolated.count, index))
        typeOwners.record(rule.targetType, servedBy: filesLoaded, at: path)
        kept = true
      } catch {
        problems.append(error)
      }
    }
    if kept {
      isolated.append(file)
      filesLoaded += 1
    }
    return (problems, accepted)
  }

  /// Warns of accepted types that are neither built in nor declared by any file.
  private func undeclaredTypeWarnings(
    _ accepted: [(path: String, targetType: String, types: [TypeIdentifier])], types: TypeRegistry
  ) -> [RuleProblem] {
    var warnings: [RuleProblem] = []
    for entry in accepted {
      for type in entry.types where !types.isKnown(type) {
        // Read only for a warning: the files of every test's scenario load here.
        let source = (try? String(contentsOfFile: entry.path, encoding: .utf8)) ?? ""
        warnings.append(
          RuleProblem(
            file: entry.path, line: RuleFileLoader.line(ofString: type.rawValue, in: source),
            message:
              "accepted type '\(type.rawValue.capped(.name))' of '\(entry.targetType.capped(.name))' is neither built in nor declared; declare it with droprules.declareType",
            severity: .warning))
      }
    }
    return warnings
  }

  /// What the files printed while they loaded, once.
  func takeLoadOutput() -> [String] {
    defer { loadOutput = [] }
    return loadOutput
  }

  // MARK: RuleCalling

  func rule(forTargetType type: String) -> RuleID? { ruleSet.id(for: type) }

  func describe(_ rule: RuleID) -> RuleDescription {
    let owner = owners[rule]
    if owner.state < 0 { return isolated[-1 - owner.state].rules[owner.rule].description }
    return states[owner.state].describe(owner.rule)
  }

  func call(
    _ handler: Handler, of rule: RuleID, target: TargetID, position: Int, context: HandlerContext,
    in view: any RuleView
  ) -> HandlerResult {
    let owner = owners[rule]
    lastCalled = owner.state
    if owner.state < 0 {
      guard let engine = view as? DragEngine else { return .notImplemented }
      return isolated[-1 - owner.state].call(
        handler, of: owner.rule, target: target, position: position, context: context, in: engine)
    }
    // Under an embedder's one cap, the state counts the other files and the board too.
    if memoryHeldElsewhere != 0 { shareTheCap(with: owner.state, boardBytes: view.storedDataBytes) }
    return unretainedStates[owner.state]._withUnsafeGuaranteedRef {
      $0.call(handler, of: owner.rule, target: target, position: position, context: context, in: view)
    }
  }

  /// Counts, against the state about to run, what the host's other states and its board
  /// hold beside what the embedder holds elsewhere.
  private func shareTheCap(with index: Int, boardBytes: Int) {
    let others = states.indices.reduce(0) { $1 == index ? $0 : $0 + states[$1].runtime.ownMemoryInUse }
    states[index].runtime.sharedAccountBytes = memoryHeldElsewhere + others + boardBytes
  }

  func takePrintedLines() -> [String] {
    if lastCalled < 0 { return isolated[-1 - lastCalled].takePrintedLines() }
    guard lastCalled < unretainedStates.count else { return [] }
    return unretainedStates[lastCalled]._withUnsafeGuaranteedRef { $0.takePrintedLines() }
  }

  func dragDidEnd() {
    for state in states { state.dragDidEnd() }
    for file in isolated { file.dragDidEnd() }
  }
}

@available(*, unavailable) extension RuleFiles: Sendable {}
