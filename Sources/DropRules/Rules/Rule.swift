/// The rule for one target type, as a rule file declares it.
public struct Rule {
  /// The target type this rule is for, or `*` for the fallback.
  public var targetType: String
  /// Types of which a dragged item must carry one for the target to take part, like
  /// `onDrop(of:)`; nil accepts everything.
  public var accepts: [TypeIdentifier]?
  /// The handler functions, indexed by ``Handler/ordinal``; none for a rule whose file
  /// runs in a worker process (its functions are there).
  let functions: [LuaReference?]
  /// The handlers the rule has.
  public let handlers: Set<Handler>
  /// The rule file that declared the rule.
  public var file: String
  /// What a drop on the rule's targets may do to the board's items beyond moving them
  /// (`deletes = true` for a trash, `duplicates = true` for a copy shelf), so that
  /// `droprules fuzz` does not report it as a lost or duplicated item.
  public var effects: Set<RuleEffect>

  init(
    targetType: String, accepts: [TypeIdentifier]?, handlers: [Handler: LuaReference], file: String,
    effects: Set<RuleEffect> = []
  ) {
    self.targetType = targetType
    self.accepts = accepts
    self.functions = Handler.allCases.map { handlers[$0] }
    self.handlers = Set(handlers.keys)
    self.file = file
    self.effects = effects
  }

  /// A rule whose handlers run elsewhere: in a rule file's worker process.
  init(targetType: String, accepts: [TypeIdentifier]?, handlers: Set<Handler>, file: String, effects: Set<RuleEffect>) {
    self.targetType = targetType
    self.accepts = accepts
    self.functions = []
    self.handlers = handlers
    self.file = file
    self.effects = effects
  }

  /// Whether the rule has this handler.
  public func implements(_ handler: Handler) -> Bool { handlers.contains(handler) }

  /// Whether targets of this type take drops (see ``Handler/takesDrops(implementing:)``).
  public var takesDrops: Bool { Handler.takesDrops(implementing: implements) }
}

/// What a rule declares its drops do to the board's items beyond moving them.
public enum RuleEffect: String, Sendable, CaseIterable, Hashable, Codable {
  /// A drop may take items off the board for good (a trash).
  case deletes
  /// A drop may leave more items on the board than it brought (a shelf that keeps a copy
  /// of everything put on it).
  case duplicates
}

extension Handler {
  /// The handler's place in `allCases`, for array lookups on the hot path.
  var ordinal: Int {
    switch self {
    case .validateDrop: 0
    case .dropEntered: 1
    case .dropUpdated: 2
    case .dropExited: 3
    case .performDrop: 4
    case .canDrag: 5
    case .dragOperations: 6
    case .dragEnded: 7
    case .dragPreview: 8
    case .announce: 9
    }
  }
}

/// The loaded rules, keyed by target type, with the `*` fallback.
public struct RuleSet {
  /// The target type of the rule for targets no other rule names: `["*"] = { ... }`.
  public static let fallbackKey = "*"
  /// Rules in load order; a ``RuleID`` is a position here.
  private(set) var all: [Rule] = []
  private var idsByType: [String: RuleID] = [:]

  /// The rule for a target type: its own, else the fallback.
  public func rule(for targetType: String) -> Rule? { id(for: targetType).map { all[$0] } }

  /// The id of the rule for a target type: its own, else the fallback.
  func id(for targetType: String) -> RuleID? { idsByType[targetType] ?? idsByType[Self.fallbackKey] }

  /// Adds a rule; a second rule for the same type is an error naming both files.
  mutating func add(_ rule: Rule) throws(RuleProblem) {
    if let existing = idsByType[rule.targetType] {
      throw RuleProblem(
        file: rule.file, line: nil,
        message:
          "target type '\(rule.targetType.capped(.name))' already has a rule in \(all[existing].file); each type may be named by one file only"
      )
    }
    idsByType[rule.targetType] = all.count
    all.append(rule)
  }
}
