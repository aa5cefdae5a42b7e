import DropRules
import DropRulesLua
import DropRulesModel
import Foundation

/// A long-lived rule host that a client drives call by call: the state behind the host
/// protocol (`droprules serve`), with a typed Swift method for each of its methods.
///
/// ```swift
/// let session = try ProtocolSession(limits: LuaLimits())
/// try session.loadRules(["rules/calendar/calendar.lua"])
/// try session.setBoard(board, types: [("com.example.schedule-item", ["public.data"])])
/// try session.beginDrag(DragRequest(items: [.board("standup")]))
/// let step = try session.perform(.over("day-13", index: nil))   // step.proposal == .move
/// try session.perform(.drop)                                   // .outcome == .performed
/// ```
///
/// Unlike a ``RuleHost``, whose rule files stay loaded for its life, a session can
/// replace its rules: ``loadRules(_:)`` builds a fresh host with the current board and
/// the declared types, so loading again picks up edited files.
public final class ProtocolSession {
  /// The host the session drives now; ``loadRules(_:)`` replaces it.
  public private(set) var host: RuleHost
  /// The limits every host of the session runs under.
  public let limits: LuaLimits
  /// Types declared by the scenario and by ``setBoard(_:types:)``, in order. Every host
  /// the session builds declares them before loading rules.
  public private(set) var declaredTypes: [DeclaredType] = []
  /// Where the current (or last) drag's diagnostics start in the host's list.
  private var dragDiagnosticsStart = 0

  /// A custom type and the types it conforms to.
  public typealias DeclaredType = (id: TypeIdentifier, conformsTo: [TypeIdentifier])

  /// A session with an empty board and no rules.
  public init(limits: LuaLimits = LuaLimits()) throws(LuaError) {
    self.limits = limits
    host = try RuleHost(limits: limits)
  }

  /// A session whose first host is `host`, made for a scenario with `types` (see
  /// ``ScenarioRunner/makeHost(for:extraRules:)``).
  public init(host: RuleHost, declaredTypes: [DeclaredType], limits: LuaLimits) {
    self.host = host
    self.declaredTypes = declaredTypes
    self.limits = limits
  }

  /// The rule files loaded now.
  public var ruleFiles: [String] { host.ruleFiles }
  /// Whether a drag is in progress.
  public var isDragging: Bool { host.isDragging }

  // MARK: Between drags

  /// Replaces the rule set with the rule files `paths` name (folders give their
  /// `*.lua` files, as `--rules` does), or reloads the current files when `paths` is
  /// nil. All or nothing: when a file has an error, the previous rules stay.
  ///
  /// A fresh host with the current board and the declared types loads the files, so
  /// what the rules kept in their own variables starts over.
  @discardableResult
  public func loadRules(_ paths: [String]?) throws(ProtocolSessionError) -> RuleLoadReport {
    guard !isDragging else { throw .drag(.dragInProgress) }
    let files =
      paths.map { FileDiscovery.files(in: $0, recursive: false, where: FileDiscovery.isRuleFile).files }
      ?? host.ruleFiles
    let fresh: RuleHost
    do { fresh = try RuleHost(limits: limits) } catch { throw .runtime(error) }
    fresh.lineObserver = host.lineObserver
    do {
      for type in declaredTypes { try fresh.declareType(type.id, conformsTo: type.conformsTo) }
      try fresh.replaceBoard(host.board)
    } catch {
      throw .drag(error)
    }
    let problems = fresh.loadRulesCollectingProblems(atPaths: files)
    let errors = problems.filter { $0.severity == .error }
    guard errors.isEmpty else { throw .rules(RuleLoadError(problems: errors)) }
    host = fresh
    dragDiagnosticsStart = 0
    return RuleLoadReport(
      files: files, warnings: problems.filter { $0.severity == .warning }, printed: fresh.loadOutput)
  }

  /// Replaces the board between drags and declares `types` (declarations merge, as
  /// ``RuleHost/declareType(_:conformsTo:)`` does, and last for the session). Rule
  /// handlers see the new targets from the next drag on.
  public func setBoard(_ board: Board, types: [DeclaredType] = []) throws(ProtocolSessionError) {
    guard !isDragging else { throw .drag(.dragInProgress) }
    do {
      for type in types { try host.declareType(type.id, conformsTo: type.conformsTo) }
      try host.replaceBoard(board)
    } catch {
      throw .drag(error)
    }
    declaredTypes += types
  }

  // MARK: Drags

  /// Begins a drag; its step 0 names the items `canDrag` refused, and has the outcome
  /// `refused` when none was left (then no drag is in progress).
  @discardableResult
  public func beginDrag(_ request: DragRequest) throws(ProtocolSessionError) -> TraceStep {
    guard !isDragging else { throw .drag(.dragInProgress) }
    dragDiagnosticsStart = host.diagnostics.count
    return try step { () throws(DragError) in try host.beginDrag(request) }
  }

  /// Performs one step of the drag and answers with it as the trace shows it; a drop or
  /// a cancel's step carries the outcome.
  @discardableResult
  public func perform(_ step: DragStep) throws(ProtocolSessionError) -> TraceStep {
    try self.step { () throws(DragError) in try host.perform(step) }
  }

  /// Moves targets' frames between drags (during one, ``perform(_:)`` a `frames` step).
  public func setFrames(_ frames: [TargetID: Rect]) throws(ProtocolSessionError) {
    do { try host.setFrames(frames) } catch { throw .drag(error) }
  }

  /// The rule errors of the current drag, or of the last one once it ended.
  public var dragDiagnostics: [Diagnostic] {
    let all = host.diagnostics
    return Array(all[min(dragDiagnosticsStart, all.count)...])
  }

  /// Runs one drag call and answers with the step it took.
  private func step<Result>(_ call: () throws(DragError) -> Result) throws(ProtocolSessionError) -> TraceStep {
    do { _ = try call() } catch { throw .drag(error) }
    guard let step = host.lastStep else { throw .drag(.noDrag) }
    return step
  }
}

@available(*, unavailable) extension ProtocolSession: Sendable {}

/// What loading rules gave: the files, the warnings, and what the files printed.
public struct RuleLoadReport: Equatable, Sendable {
  /// The rule files loaded, folders expanded.
  public var files: [String]
  /// Problems that do not stop the files from loading (an undeclared accepted type).
  public var warnings: [RuleProblem]
  /// What the files printed while they loaded.
  public var printed: [String]
}

/// Why a session call did nothing.
public enum ProtocolSessionError: Error, Equatable, CustomStringConvertible {
  /// A drag call at the wrong time, or naming what is not on the board.
  case drag(DragError)
  /// Rule files that did not load; the session keeps its previous rules.
  case rules(RuleLoadError)
  /// A fresh rule runtime could not be made.
  case runtime(LuaError)

  /// The message of the drag, rule or runtime error.
  public var description: String {
    switch self {
    case .drag(let error): error.description
    case .rules(let error): error.description
    case .runtime(let error): error.description
    }
  }
}
