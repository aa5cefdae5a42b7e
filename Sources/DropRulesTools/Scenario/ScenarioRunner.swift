import DropRules
import DropRulesLua
import DropRulesModel

/// The result of replaying a scenario.
public struct ScenarioResult {
  /// The scenario replayed.
  public var scenario: Scenario
  /// Every step of the replay: the handlers called, what they returned and printed.
  public var trace: [TraceStep]
  /// The negotiated proposal after each pointer or modifier step.
  public var proposals: [Proposal]
  /// The target under the pointer after each of those steps (nil for none).
  public var targets: [TargetID?] = []
  /// The insertion index a drop would get after each of those steps (nil for none).
  public var indexes: [Int?] = []
  /// How the drag ended: performed, cancelled, failed or refused.
  public var outcome: DropOutcome
  /// The board after the drag.
  public var board: Board
  /// The rule errors caught during the drag, each turned into a safe default; at most
  /// ``DragEngine/maximumDiagnosticsPerDrag``.
  public var diagnostics: [Diagnostic]
  /// How many more rule errors the drag had than ``diagnostics`` keeps.
  public var diagnosticsDropped = 0
  /// What the scenario expected and did not get; empty when it passed or expects nothing.
  public var failedExpectations: [String]
  /// Lines rule files printed while loading.
  public var loadOutput: [String]

  /// Why the drop was not performed, when the drag ended in a drop that failed or was
  /// cancelled (see ``OutcomeReason``).
  public var outcomeReason: OutcomeReason? { trace.last(where: { $0.outcome != nil })?.outcomeReason }

  /// Whether the run is clean: expectations met and, unless the scenario expects a
  /// number of errors, no rule raised.
  public var passed: Bool {
    failedExpectations.isEmpty && (scenario.expect?.errors != nil || diagnostics.isEmpty)
  }
}

/// A scenario that could not be replayed: its input or its rules did not load.
public enum ScenarioRunError: Error, CustomStringConvertible {
  case scenario(ScenarioError)
  case rules(RuleLoadError)
  case lua(LuaError)
  case drag(DragError)
  /// The scenario named a rule file outside its folder and every trusted root.
  case refusedRuleFile(RuleFileRefusal)

  /// The message of the underlying error.
  public var description: String {
    switch self {
    case .refusedRuleFile(let error): error.description
    case .scenario(let error): error.description
    case .rules(let error): error.description
    case .lua(let error): error.description
    case .drag(let error): error.description
    }
  }
}

/// Replays scenarios on a fresh host each.
public struct ScenarioRunner {
  /// The limits of each scenario's rule host.
  public var limits: LuaLimits
  /// Receives every executed rule line (coverage).
  public var lineObserver: ((String, Int) -> Void)?
  /// Files and folders outside a scenario's own folder whose rule files it may name:
  /// those the user gave with `--rules`.
  public var trustedRuleRoots: [String] = []

  /// A runner whose hosts run under `limits` and may load rule files under `trustedRuleRoots`.
  public init(limits: LuaLimits = LuaLimits(), trustedRuleRoots: [String] = []) {
    self.limits = limits
    self.trustedRuleRoots = trustedRuleRoots
  }

  /// Makes a host with the scenario's types, rules and board.
  ///
  /// The scenario's own rule files must lie in its file's folder tree or under a
  /// trusted root; `extraRules`, named by the user, are trusted as they are.
  public func makeHost(for scenario: Scenario, extraRules: [String] = []) throws(ScenarioRunError) -> RuleHost {
    let confinement = RuleFileConfinement(trustedRoots: trustedRuleRoots)
    do {
      try confinement.check(scenario.rules, namedBy: scenario.file)
    } catch {
      throw .refusedRuleFile(error)
    }
    let host: RuleHost
    do { host = try RuleHost(limits: limits) } catch { throw .lua(error) }
    // Checked again on each file once open: a link swapped after the check is refused.
    host.ruleFileRoots = confinement.roots(namedBy: scenario.file)
    host.lineObserver = lineObserver
    do {
      for type in scenario.types { try host.declareType(type.id, conformsTo: type.conformsTo) }
      try host.replaceBoard(scenario.board)
    } catch {
      throw .drag(error)
    }
    // A file both the scenario and --rules name loads once (the host loads each real path once).
    do { try host.loadRules(atPaths: scenario.rules + extraRules) } catch { throw .rules(error) }
    return host
  }

  /// Replays the scenario's drag; a scenario whose steps do not end with a drop or a
  /// cancel is cancelled after its last step, so every entered target is exited.
  public func run(_ scenario: Scenario, extraRules: [String] = []) throws(ScenarioRunError) -> ScenarioResult {
    let host = try makeHost(for: scenario, extraRules: extraRules)
    var proposals: [Proposal] = []
    var targets: [TargetID?] = []
    var indexes: [Int?] = []
    var outcome = DropOutcome.cancelled
    do {
      if try host.beginDrag(scenario.drag).isRefused {
        // The sources let no item go: the drag never began, so no step can run.
        outcome = .refused
      } else {
        for step in scenario.steps {
          switch try host.perform(step) {
          case .proposal(let proposal):
            proposals.append(proposal)
            // The last step alone: reading the whole trace each step would be quadratic.
            let last = host.lastStep
            targets.append(last?.target)
            indexes.append(last?.index)
          case .outcome(let ended): outcome = ended
          }
        }
        if scenario.steps.last?.endsDrag != true { outcome = try host.cancel() }
      }
    } catch {
      throw .drag(error)
    }
    var result = ScenarioResult(
      scenario: scenario, trace: host.trace, proposals: proposals, outcome: outcome, board: host.board,
      diagnostics: host.diagnostics, failedExpectations: [], loadOutput: host.loadOutput)
    result.diagnosticsDropped = host.diagnosticsDropped
    result.targets = targets
    result.indexes = indexes
    if let expect = scenario.expect { result.failedExpectations = Self.check(expect, against: result) }
    return result
  }

  static func check(_ expect: ScenarioExpectation, against result: ScenarioResult) -> [String] {
    var failures: [String] = []
    if let proposals = expect.proposals, proposals != result.proposals {
      failures.append(
        "proposals: expected \(list(proposals.map(\.rawValue))), got \(list(result.proposals.map(\.rawValue)))")
    }
    if let outcome = expect.outcome, outcome != result.outcome {
      failures.append("outcome: expected \(outcome.rawValue), got \(result.outcome.rawValue)")
    }
    for (target, expected) in (expect.board ?? [:]).sorted(by: { $0.key < $1.key }) {
      let actual = result.board.items(in: target)
      if !matches(expected, actual) {
        failures.append("board.\(target): expected \(list(expected)), got \(list(actual))")
      }
    }
    for (target, keys) in (expect.data ?? [:]).sorted(by: { $0.key < $1.key }) {
      let data = result.board.target(target)?.data ?? [:]
      for (key, expected) in keys.sorted(by: { $0.key < $1.key }) where (data[key] ?? .null) != expected {
        failures.append(
          "data.\(target).\(key): expected \(expected.serialized()), got \((data[key] ?? .null).serialized())")
      }
    }
    let errorCount = result.diagnostics.count + result.diagnosticsDropped
    if let errors = expect.errors, errors != errorCount {
      // The errors themselves, not only their count: they say what to fix. One a line, so
      // that every report keeps them on lines of their own; the first 20 of a long run.
      let diagnostics = result.diagnostics
      let count = "errors: expected \(errors), got \(errorCount)"
      if diagnostics.count == 1, let only = diagnostics.first {
        failures.append("\(count): \(only)")
      } else {
        failures.append(count)
        failures += diagnostics.prefix(20).enumerated().map {
          "errors: \($0.offset + 1) of \(errorCount): \($0.element)"
        }
        if errorCount > 20 { failures.append("errors: and \(errorCount - 20) more") }
      }
    }
    failures += checkSteps(expect, against: result)
    return failures
  }

  /// Item lists match when equal, `*` standing for any one id.
  static func matches(_ expected: [String], _ actual: [String]) -> Bool {
    expected.count == actual.count && zip(expected, actual).allSatisfy { $0 == "*" || $0 == $1 }
  }

  private static func list(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }
}

extension ScenarioRunner {
  /// The checks of `targets`, `indexes`, `printed` and `refused`.
  static func checkSteps(_ expect: ScenarioExpectation, against result: ScenarioResult) -> [String] {
    var failures: [String] = []
    func shown<Value>(_ values: [Value?]) -> String { list(values.map { $0.map { "\($0)" } ?? "null" }) }
    if let targets = expect.targets, targets != result.targets {
      failures.append("targets: expected \(shown(targets)), got \(shown(result.targets))")
    }
    if let indexes = expect.indexes, indexes != result.indexes {
      failures.append("indexes: expected \(shown(indexes)), got \(shown(result.indexes))")
    }
    let printed = result.trace.flatMap(\.printed)
    if let expected = expect.printed, expected != printed {
      let quoted = { (lines: [String]) in list(lines.map { JSONValue.string($0).serialized() }) }
      failures.append("printed: expected \(quoted(expected)), got \(quoted(printed))")
    }
    let refused = result.trace.first?.refused ?? []
    if let expected = expect.refused, expected != refused {
      failures.append("refused: expected \(list(expected)), got \(list(refused))")
    }
    return failures
  }
}
