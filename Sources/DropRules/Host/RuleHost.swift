import Foundation

/// Runs Lua drop rules against a board: the embedding API of droprules.
///
/// ```swift
/// let host = try RuleHost()
/// try host.loadRules(atPaths: ["rules/calendar/calendar.lua"])
/// try host.replaceBoard(Board(targets: days, items: events))
/// try host.beginDrag(DragRequest(items: [.board("standup")]))
/// try host.movePointer(to: Point(x: 150, y: 50))   // .move
/// try host.setModifiers([.option])                 // .copy
/// try host.drop()                                  // .performed
/// print(host.trace)
/// ```
///
/// A host is a ``DragEngine`` driving rule files, each loaded into a sandboxed Lua state of
/// its own.
/// Every change a rule makes during a drag is staged: later handlers of the same drag
/// see it, `performDrop` returning true commits it, anything else rolls it back.
public final class RuleHost {
  let files: RuleFiles
  /// The drag engine: board, lifecycle, trace.
  public let engine: DragEngine
  /// The rule files loaded so far.
  public private(set) var ruleFiles: [String] = []
  /// What rule files printed while they loaded.
  public private(set) var loadOutput: [String] = []

  /// Creates a host with an empty board and no rules.
  public init(limits: LuaLimits = LuaLimits()) throws(LuaError) {
    files = RuleFiles(limits: limits)
    engine = DragEngine(rules: files)
  }

  /// The loaded rules.
  public var rules: RuleSet { files.ruleSet }
  /// The type conformance graph, with the types rules and scenarios declared.
  public var types: TypeRegistry { engine.types }
  /// The committed board (during a drag, without the drag's staged changes).
  public var board: Board { engine.board }
  /// The board as the current drag sees it: committed plus staged changes.
  public var currentBoard: Board { engine.currentBoard }
  /// Whether a drag is in progress.
  public var isDragging: Bool { engine.isDragging }
  /// The steps of the current drag, or of the last one once it ended.
  public var trace: [TraceStep] { engine.trace }
  /// Every diagnostic since the host was made, but those past a drag's
  /// ``DragEngine/maximumDiagnosticsPerDrag``.
  public var diagnostics: [Diagnostic] { engine.diagnostics }
  /// How many diagnostics were counted and left out, past each drag's
  /// ``DragEngine/maximumDiagnosticsPerDrag``.
  public var diagnosticsDropped: Int { engine.diagnosticsDropped }

  /// Bytes the host holds for its rules: every rule file's Lua heap and what it keeps
  /// for its rules, and the data rules stored on the board.
  public var memoryInUse: Int { files.memoryInUse + engine.storedDataBytes }
  /// Bytes held outside this host that count against its memory cap: an embedder that
  /// runs several hosts under one cap sets it before it drives one (a test's
  /// simulations share the test's cap this way). While it is set, each rule file's
  /// state also counts what the host's other files and its board hold, so that the
  /// whole host stays under that one cap.
  public var memoryHeldElsewhere: Int {
    get { files.memoryHeldElsewhere }
    set { files.memoryHeldElsewhere = newValue }
  }
  /// Nanoseconds spent in each handler call, when measuring (`droprules bench`).
  public var handlerTimings: [HandlerTiming]? {
    get { engine.observers.timings }
    set { engine.observers.timings = newValue }
  }

  /// Observes executed lines of rule files (for coverage); nil stops observing.
  public var lineObserver: ((String, Int) -> Void)? {
    get { files.lineObserver }
    set { files.lineObserver = newValue }
  }

  /// Folders (real paths) the rule files loaded from now on must lie in, links
  /// resolved, checked on each file once it is open, so that a link swapped after a
  /// check of its path cannot lead a load outside; nil (the default) for anywhere.
  /// Scenarios set it to their folder and the user's `--rules` paths.
  public var ruleFileRoots: [String]? {
    get { files.ruleFileRoots }
    set { files.ruleFileRoots = newValue }
  }

  /// Replaces the board between drags; during a drag this throws ``DragError/dragInProgress``.
  public func replaceBoard(_ board: Board) throws(DragError) { try engine.replaceBoard(board) }

  /// Declares a custom type between drags (scenarios do this before loading rules).
  public func declareType(_ type: TypeIdentifier, conformsTo parents: [TypeIdentifier]) throws(DragError) {
    try engine.declareType(type, conformsTo: parents)
  }

  /// Loads rule files. All files are read; every problem is reported together.
  ///
  /// A rule file returns a table mapping target types to rules; a type named by two
  /// files, an unknown handler name or a non-function handler is an error.
  public func loadRules(atPaths paths: [String]) throws(RuleLoadError) {
    let problems = loadRulesCollectingProblems(atPaths: paths).filter { $0.severity == .error }
    if !problems.isEmpty { throw RuleLoadError(problems: problems) }
  }

  /// Loads rule files and returns every problem, warnings included (`droprules check`).
  @discardableResult
  public func loadRulesCollectingProblems(atPaths paths: [String]) -> [RuleProblem] {
    guard !engine.isDragging else {
      return paths.map { RuleProblem(file: $0, line: nil, message: "rules cannot be loaded during a drag") }
    }
    // A file named twice (a scenario's own file and a --rules folder holding it, or the
    // same folder given twice) loads once: loading it again would name its types twice.
    var loaded = Set(ruleFiles.compactMap(RealPath.of))
    let paths = paths.filter { path in RealPath.of(path).map { loaded.insert($0).inserted } ?? true }
    let problems = files.load(paths: paths, in: engine)
    ruleFiles += paths
    loadOutput += files.takeLoadOutput()
    engine.rulesDidChange()
    return problems
  }

  // MARK: Drags

  /// Starts a drag; sources' `canDrag` may refuse items. See ``DragEngine/beginDrag(_:)``.
  @discardableResult
  public func beginDrag(_ request: DragRequest) throws(DragError) -> DragStart { try engine.beginDrag(request) }

  /// Performs one step of the drag: what every driver of drags (scenario files, the host
  /// protocol, `droprules bench`, rule tests) calls. ``lastStep`` then shows the step as
  /// the trace does.
  @discardableResult
  public func perform(_ step: DragStep) throws(DragError) -> DragStepResult { try engine.perform(step) }

  /// Moves the pointer to a global location and returns the negotiated proposal.
  @discardableResult
  public func movePointer(to point: Point) throws(DragError) -> Proposal { try engine.movePointer(to: point) }

  /// Moves the pointer to the centre of `target`, optionally naming the insertion index.
  @discardableResult
  public func moveOver(_ target: TargetID, index: Int? = nil) throws(DragError) -> Proposal {
    try engine.moveOver(target, index: index)
  }

  /// Moves the pointer off the board into another app. See ``DragEngine/moveOutside(accepting:operation:)``.
  @discardableResult
  public func moveOutside(
    accepting accepts: [TypeIdentifier] = ["public.item"], operation: DragOperation = .copy
  ) throws(DragError) -> Proposal {
    try engine.moveOutside(accepting: accepts, operation: operation)
  }

  /// Changes the pressed modifiers: the current target gets dropUpdated only.
  @discardableResult
  public func setModifiers(_ modifiers: Set<Modifier>) throws(DragError) -> Proposal {
    try engine.setModifiers(modifiers)
  }

  /// Drops, committing or rolling back what the drag staged.
  @discardableResult
  public func drop() throws(DragError) -> DropOutcome { try engine.drop() }

  /// Cancels the drag, rolling back what it staged.
  @discardableResult
  public func cancel() throws(DragError) -> DropOutcome { try engine.cancel() }

  /// How many transactions have committed a change to the board (a performed drop, a
  /// source's `dragEnded`): unchanged, the board is as the last one left it.
  public var commits: Int { engine.commits }

  /// Moves targets' frames after a layout change: between drags at once (nil); during a
  /// drag as a step that hit-tests the pointer again, answering its proposal.
  @discardableResult
  public func setFrames(_ frames: [TargetID: Rect]) throws(DragError) -> Proposal? {
    try engine.setFrames(frames)
  }
}

@available(*, unavailable) extension RuleHost: Sendable {}

extension RuleHost {
  /// The step the host took last (the drag's start, a pointer step, the drop), as
  /// ``trace`` shows it.
  public var lastStep: TraceStep? { engine.lastStep }
}
