/// The DropDelegate callbacks a rule can implement.
public enum Handler: String, Sendable, CaseIterable, Hashable {
  case validateDrop
  case dropEntered
  case dropUpdated
  case dropExited
  case performDrop
}

/// The rule for one target type, as a rule file declares it.
public struct Rule {
  /// The target type this rule is for, or `*` for the fallback.
  public var targetType: String
  /// Types of which a dragged item must carry one for the target to take part, like
  /// `onDrop(of:)`; nil accepts everything.
  public var accepts: [TypeIdentifier]?
  var handlers: [Handler: LuaReference]
  /// The rule file that declared the rule.
  public var file: String

  public func implements(_ handler: Handler) -> Bool { handlers[handler] != nil }
}

/// The loaded rules, keyed by target type, with the `*` fallback.
public struct RuleSet {
  public static let fallbackKey = "*"
  private(set) var rules: [String: Rule] = [:]

  /// The rule for a target type: its own, else the fallback.
  public func rule(for targetType: String) -> Rule? {
    rules[targetType] ?? rules[Self.fallbackKey]
  }

  /// The target types with rules, sorted.
  public var targetTypes: [String] { rules.keys.sorted() }

  /// Adds a rule; a second rule for the same type is an error naming both files.
  mutating func add(_ rule: Rule) throws(RuleProblem) {
    if let existing = rules[rule.targetType] {
      throw RuleProblem(
        file: rule.file, line: nil,
        message:
          "target type '\(rule.targetType)' already has a rule in \(existing.file); each type may be named by one file only"
      )
    }
    rules[rule.targetType] = rule
  }
}
