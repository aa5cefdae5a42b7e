import DropRulesLua
import DropRulesModel

/// A rule file that runs in a worker process (``DropRulesLua/LuaLimits/workerCommand``),
/// as the host sees it: every call is sent to the worker with what changed on the board
/// since the worker last saw it, the changes the rule asks for are made by the host's
/// engine, and a worker that does not answer by the deadline plus
/// ``DropRulesLua/LuaLimits/workerMargin`` is stopped, its call failing as a timed-out call
/// does. A stopped worker starts again, the file loaded afresh, at the file's next call.
final class IsolatedRuleFile {
  let path: String
  let limits: LuaLimits
  let loadOrder: Int
  let confinement: [String]?
  private let owners: TargetTypeOwners
  private var worker: WorkerProcess?
  /// The rules the file declared when it first loaded; a restart must declare the same.
  private(set) var rules: [RuleSummary] = []
  /// Why the file cannot run again (its restart failed, or declared other rules).
  private var broken: String?
  /// The engine version and type owners the worker last saw.
  private var seenVersion: Int?
  private var seenBoards: Int?
  private var seenOwners: TargetTypeOwners.Table?
  private var seenDeclarations: Int?
  private var printed: [String] = []
  /// What the file printed in the current drag, as its state counts it against its cap:
  /// a worker that starts again mid-drag counts it too, so that stopping a worker frees
  /// no room.
  private var printedBytesThisDrag = 0
  /// How many times the current drag stopped the worker. Past
  /// ``maximumStopsPerDrag``, the file's calls fail for the rest of the drag: each stop
  /// costs the host a deadline and a start, and leaves behind what the call made (its
  /// copies of items) beyond the new state's count.
  private var stopsThisDrag = 0
  static let maximumStopsPerDrag = 3
  /// Bytes the file's Lua state held at its last answer.
  private(set) var memoryInUse = 0

  init(path: String, limits: LuaLimits, loadOrder: Int, confinement: [String]?, owners: TargetTypeOwners) {
    self.path = path
    self.limits = limits
    self.loadOrder = loadOrder
    self.confinement = confinement
    self.owners = owners
  }

  /// The most bytes one message from the worker may have: a rule's change holds at most
  /// what its state may, and the rest is capped text.
  private var maximumMessageBytes: Int { limits.maxMemory * 2 + (1 << 20) }

  /// When a call (or a load) started now must have answered.
  private var deadline: ContinuousClock.Instant? {
    limits.maxTime > .zero ? .now + limits.maxTime + LuaLimits.workerMargin : nil
  }

  /// Starts the worker and loads the file; returns what the load gave.
  func load(in engine: DragEngine) -> (rules: [RuleSummary], problems: [RuleProblem], accepted: [AcceptedTypes]) {
    switch start(in: engine, restarting: false) {
    case .success(let loaded):
      rules = loaded.rules
      return (loaded.rules, loaded.problems, loaded.accepted)
    case .failure(let problem):
      return ([], [problem], [])
    }
  }

  private func start(in engine: DragEngine, restarting: Bool) -> Result<WorkerLoaded, RuleProblem> {
    let worker: WorkerProcess
    do {
      worker = try WorkerProcess(command: limits.workerCommand ?? [], maximumMessageBytes: maximumMessageBytes)
    } catch {
      return .failure(RuleProblem(file: path, line: nil, message: error.message))
    }
    self.worker = worker
    let load = WorkerLoad(
      path: path, limits: limits, confinement: confinement, loadOrder: loadOrder, owners: owners.table,
      view: ViewSnapshot(of: engine), heldBytes: printedBytesThisDrag)
    do throws(WorkerFault) {
      let report = try exchange(.load(load), with: worker) { request in
        guard restarting, case .declareType(let type, let parents) = request else { return engine.answer(request) }
        // The file declared its types when it first loaded; again, they change nothing.
        let known = engine.types.directParents(of: type).map { Set(parents).isSubset(of: $0) } ?? false
        return known ? .declared : .notDeclared(.dragInProgress)
      }
      guard case .loaded(let loaded) = report else { throw .malformed("an answer that is not the load's") }
      seen(engine)
      keepPrinted(loaded.printed)
      memoryInUse = loaded.memory
      return .success(loaded)
    } catch {
      stop()
      return .failure(
        RuleProblem(file: path, line: nil, message: "the rule file's worker process failed to load it: \(error)"))
    }
  }

  /// Runs a handler in the worker.
  func call(
    _ handler: Handler, of rule: RuleID, target: TargetID, position: Int, context: HandlerContext,
    in engine: DragEngine
  ) -> HandlerResult {
    // As in the host's process, a handler the rule lacks costs nothing: no round trip.
    guard rules[rule].handlers.contains(handler) else { return .notImplemented }
    if let broken { return .failed(diagnostic(broken, handler: handler, target: target)) }
    guard stopsThisDrag < Self.maximumStopsPerDrag else {
      var diagnostic = diagnostic(
        "its worker process was stopped \(stopsThisDrag) times in this drag, each time past the time limit of "
          + "\(limits.maxTimeMilliseconds) ms; its calls fail until the drag ends", handler: handler, target: target)
      diagnostic.limit = .time
      return .failed(diagnostic)
    }
    if worker == nil {
      switch start(in: engine, restarting: true) {
      case .success(let loaded) where loaded.rules == rules: break
      case .success:
        broken = "the rule file declared other rules when its worker process started again; load it again"
        stop()
        return .failed(diagnostic(broken ?? "", handler: handler, target: target))
      case .failure(let problem):
        // A start that stalls costs the host as much as a call that does.
        stopsThisDrag += 1
        return .failed(diagnostic(problem.message, handler: handler, target: target))
      }
    }
    guard let worker else { return .notImplemented }
    let changed =
      seenVersion != engine.version.value || seenBoards != engine.boardsReplaced
      || seenDeclarations != engine.types.declarations
    let call = WorkerCall(
      handler: handler, rule: rule, target: target, position: position, context: context,
      view: changed ? ViewSnapshot(of: engine, typesAfter: seenDeclarations) : nil,
      owners: seenOwners == owners.table ? nil : owners.table)
    do throws(WorkerFault) {
      let report = try exchange(.call(call), with: worker, answering: engine.answer)
      guard case .returned(let result, let lines, let memory) = report else {
        throw .malformed("an answer that is not the call's")
      }
      // Every change since the call began was the worker's own, made on its copy too.
      seen(engine)
      keepPrinted(lines)
      memoryInUse = memory
      return result
    } catch {
      stop()
      stopsThisDrag += 1
      return .failed(stopped(error, handler: handler, target: target))
    }
  }

  /// The answer to a request made where no call runs: the board cannot change then.
  private func engineless(_: ReplicaRequest) -> ReplicaReply { .refused(.noDrag) }

  /// Sends `message` and answers the worker's requests (the changes its rule asks for)
  /// until it reports something else, all by one deadline: what it reported.
  private func exchange(
    _ message: HostMessage, with worker: WorkerProcess, answering answer: (ReplicaRequest) -> ReplicaReply
  ) throws(WorkerFault) -> WorkerReport {
    let deadline = self.deadline
    try worker.channel.send(message, by: deadline)
    while true {
      let report = try worker.channel.receive(WorkerReport.self, by: deadline)
      guard case .request(let request) = report else { return report }
      try worker.channel.send(HostMessage.reply(answer(request)), by: deadline)
    }
  }

  func dragDidEnd() {
    printedBytesThisDrag = 0
    stopsThisDrag = 0
    guard let worker else { return }
    do throws(WorkerFault) {
      guard case .dragEnded(let memory) = try exchange(.dragDidEnd, with: worker, answering: engineless) else {
        throw .malformed("an answer that is not the drag's end")
      }
      memoryInUse = memory
    } catch {
      stop()
    }
  }

  func takePrintedLines() -> [String] {
    defer { printed = [] }
    return printed
  }

  private func keepPrinted(_ lines: [String]) {
    printed += lines
    printedBytesThisDrag += lines.reduce(0) { $0 + LuaRuntime.printedCost(of: $1) }
  }

  private func seen(_ engine: DragEngine) {
    seenVersion = engine.version.value
    seenBoards = engine.boardsReplaced
    seenOwners = owners.table
    seenDeclarations = engine.types.declarations
  }

  private func stop() {
    worker?.stop()
    worker = nil
    seenVersion = nil
    seenOwners = nil
    seenDeclarations = nil
    memoryInUse = 0
  }

  /// The failure of a call whose worker was stopped: as a timed-out call's, when it was
  /// the deadline.
  private func stopped(_ fault: WorkerFault, handler: Handler, target: TargetID) -> Diagnostic {
    let restart = "its worker process was stopped, and starts again, the file's Lua state fresh, at its next call"
    guard case .timedOut = fault else {
      return diagnostic("the rule file's worker process failed: \(fault); \(restart)", handler: handler, target: target)
    }
    var diagnostic = diagnostic(
      "time limit of \(limits.maxTimeMilliseconds) ms exceeded (raise it with \(RuleLimit.time.setting)); the call "
        + "had not returned \(LuaLimits.workerMarginMilliseconds) ms later (a collection the rule's tables made slow, "
        + "for one): \(restart)",
      handler: handler, target: target)
    diagnostic.limit = .time
    return diagnostic
  }

  private func diagnostic(_ message: String, handler: Handler, target: TargetID) -> Diagnostic {
    Diagnostic(message: message, file: path, line: nil, handler: handler, target: target, traceback: "", limit: nil)
  }
}

@available(*, unavailable) extension IsolatedRuleFile: Sendable {}
