import Foundation

/// Runs Lua drop rules against a board: the embedding API of droprules.
///
/// ```swift
/// let host = try RuleHost()
/// try host.loadRules(atPaths: ["rules/calendar/calendar.lua"])
/// host.board = try Board(targets: days, items: events)
/// try host.beginDrag(DragSession(items: [.board("standup")]))
/// host.movePointer(to: Point(x: 150, y: 50))   // .move
/// host.setModifiers([.option])                 // .copy
/// host.drop()                                  // .performed
/// print(host.trace)
/// ```
///
/// Every change a rule makes during a drag is staged: later handlers of the same drag
/// see it, `performDrop` returning true commits it, anything else rolls it back.
public final class RuleHost {
  let runtime: LuaRuntime
  private(set) var api: RuleAPI
  public private(set) var rules = RuleSet()
  /// The type conformance graph, with the types rules and scenarios declared.
  public private(set) var types = TypeRegistry()
  /// The rule files loaded so far.
  public private(set) var ruleFiles: [String] = []

  /// The committed board. Setting it outside a drag replaces the board.
  public var board: Board {
    get { committed }
    set {
      precondition(drag == nil, "the board cannot be replaced during a drag")
      committed = newValue
      hitTester = HitTester(board: newValue)
      boardGeneration += 1
    }
  }
  var committed = Board()
  /// Whether a drag is in progress.
  public var isDragging: Bool { drag != nil }
  /// The board as the current drag sees it: committed plus staged changes.
  public var currentBoard: Board { drag?.staged ?? committed }

  var hitTester = HitTester(board: Board())
  /// Changes whenever the board the rules see changes; lets the Lua side keep caches.
  var boardGeneration = 0
  var drag: DragState?
  var copyCounter = 0

  /// The steps of the current drag, or of the last one once it ended.
  public internal(set) var trace: [TraceStep] = []
  /// Every diagnostic since the host was made (load-time ones included).
  public internal(set) var diagnostics: [Diagnostic] = []
  /// What rule files printed while they loaded.
  public internal(set) var loadOutput: [String] = []
  /// Nanoseconds spent in each handler call, when measuring (`droprules bench`).
  public var handlerTimings: [UInt64]?

  /// Creates a host with an empty board and no rules.
  public init(limits: LuaLimits = LuaLimits()) throws(LuaError) {
    runtime = try LuaRuntime(limits: limits)
    api = RuleAPI.placeholder
    api = try RuleAPI(runtime: runtime, hostFunctions: makeHostFunctions())
  }

  /// Observes executed lines of rule files (for coverage); nil stops observing.
  public var lineObserver: ((String, Int) -> Void)? {
    get { runtime.lineObserver }
    set { runtime.lineObserver = newValue }
  }

  /// Declares a custom type (scenarios and rule files do this).
  public func declareType(_ type: TypeIdentifier, conformsTo parents: [TypeIdentifier]) {
    types.declare(type, conformsTo: parents)
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
    let loader = RuleFileLoader(runtime: runtime, globals: ["droprules": api.droprulesGlobal])
    var problems: [RuleProblem] = []
    var accepted: [(path: String, targetType: String, types: [TypeIdentifier])] = []
    for path in paths {
      let (fileRules, fileProblems, fileAccepted) = loader.loadWithAcceptedTypes(path: path)
      problems += fileProblems
      ruleFiles.append(path)
      accepted += fileAccepted.map { (path, $0.targetType, $0.types) }
      for rule in fileRules {
        do { try rules.add(rule) } catch { problems.append(error) }
      }
    }
    loadOutput += runtime.takePrintedLines()
    for entry in accepted {
      let source = (try? String(contentsOfFile: entry.path, encoding: .utf8)) ?? ""
      for type in entry.types where !types.isKnown(type) {
        problems.append(
          RuleProblem(
            file: entry.path, line: RuleFileLoader.line(ofString: type.rawValue, in: source),
            message:
              "accepted type '\(type)' of '\(entry.targetType)' is neither built in nor declared; declare it with droprules.declareType",
            severity: .warning))
      }
    }
    return problems
  }

  /// Whether a target takes part in the current drag: a rule exists for its type and
  /// accepts one of the dragged items.
  func takesPart(_ target: DropTarget) -> Bool {
    guard let drag else { return false }
    if let cached = drag.participation[target.type] { return cached }
    // Decided once per target type and drag; later pointer moves only read the cache.
    let result: Bool
    if let rule = rules.rule(for: target.type) {
      result =
        rule.accepts.map { accepts in
          drag.itemIDs.contains { drag.staged.item($0)?.conforms(toAnyOf: accepts, in: types) ?? false }
        } ?? true
    } else {
      result = false
    }
    self.drag?.participation[target.type] = result
    return result
  }

  func freshCopyID(of id: ItemID, on board: Board) -> ItemID {
    repeat { copyCounter += 1 } while board.item("\(id)-copy\(copyCounter)") != nil
    return "\(id)-copy\(copyCounter)"
  }
}

@available(*, unavailable) extension RuleHost: Sendable {}

/// The functions of the Lua rule API that Swift calls.
struct RuleAPI {
  let dispatch: LuaReference?
  let beginDrag: LuaReference?
  let setModifiers: LuaReference?
  let droprulesGlobal: LuaValue

  static var placeholder: RuleAPI { RuleAPI(dispatch: nil, beginDrag: nil, setModifiers: nil, droprulesGlobal: .nil) }

  private init(
    dispatch: LuaReference?, beginDrag: LuaReference?, setModifiers: LuaReference?, droprulesGlobal: LuaValue
  ) {
    self.dispatch = dispatch
    self.beginDrag = beginDrag
    self.setModifiers = setModifiers
    self.droprulesGlobal = droprulesGlobal
  }

  init(runtime: LuaRuntime, hostFunctions: [String: LuaValue]) throws(LuaError) {
    let chunk = try runtime.load(source: RuleAPISource.source, chunkName: RuleAPISource.chunkName)
    guard case .table(let table) = try runtime.call(chunk, [.table(LuaTable(fields: hostFunctions))]).first ?? .nil,
      case .function(let dispatch) = table["dispatch"],
      case .function(let beginDrag) = table["beginDrag"],
      case .function(let setModifiers) = table["setModifiers"]
    else {
      throw LuaError(kind: .runtime, message: "the rule API did not load")
    }
    self.init(
      dispatch: dispatch, beginDrag: beginDrag, setModifiers: setModifiers, droprulesGlobal: table["droprules"])
  }
}
