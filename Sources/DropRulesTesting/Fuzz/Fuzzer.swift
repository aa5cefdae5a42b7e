import DropRules
import DropRulesModel
import DropRulesTools
import Foundation

/// `droprules fuzz`: random drags over a scenario's board and rules, each checked against
/// the host's promises, what rule sets almost always mean, and the author's properties.
/// The first drag that breaks one is shrunk to a small scenario and written out, so that
/// `droprules run` replays it.
public final class Fuzzer {
  /// How long a run is, where it starts, and where a failing drag goes.
  public struct Options: Sendable {
    /// How many drags to make.
    public var drags = 1_000
    /// The seed every drag follows from: the same seed, the same drags.
    public var seed: UInt64 = 1
    /// The folder the shrunk scenario of a failing drag is written to.
    public var outputDirectory = "droprules-fuzz"
    /// Drags go on from the board the last one left, back to the scenario's own board
    /// every this many drags, so that a rule set that empties its lists is fuzzed full too.
    public var freshBoardEvery = 50
    /// Stop making drags after this many seconds, if set: rules that spend most of their
    /// deadline on every call would otherwise make a run of many drags take hours.
    public var maximumSeconds: Double?

    /// Options with the defaults.
    public init() {}
  }

  /// What a run did, and what broke.
  public struct Report: Sendable {
    /// The scenario fuzzed.
    public var scenario: String
    /// The seed of the run.
    public var seed: UInt64
    /// Drags made.
    public var drags = 0
    /// Their steps, all together.
    public var steps = 0
    /// How the drags ended.
    public var outcomes: [DropOutcome: Int] = [:]
    /// How many of the author's properties were checked after each performed drop.
    public var authorProperties = 0
    /// The first property a drag broke, shrunk and written out; nil when none broke.
    public var finding: Finding?
    /// Wall time of the run, shrinking included.
    public var seconds = 0.0
    /// Whether the run stopped at its time limit before making every drag.
    public var stoppedAtTimeLimit = false
  }

  /// A broken property, the drag that broke it and the smallest drag found that still does.
  public struct Finding: Sendable {
    /// The property broken, said of the shrunk drag.
    public var failure: FuzzFailure
    /// The drag's 1-based number in the run.
    public var drag: Int
    /// The board the drag started on.
    public var board: Board
    /// The drag as generated.
    public var original: FuzzDrag
    /// The smallest drag found that still breaks the property.
    public var shrunk: FuzzDrag
    /// The scenario file written for the shrunk drag; nil when writing failed.
    public var file: String?
    /// Why the file could not be written.
    public var writeError: String?
  }

  private let scenario: Scenario
  private let runner: ScenarioRunner
  private let extraRules: [String]
  private let authorProperties: AuthorProperties?
  private let generator: DragGenerator

  /// A fuzzer of `scenario`'s board and rules, with `extraRules` loaded after them and the
  /// properties of `testFiles`.
  public init(scenario: Scenario, runner: ScenarioRunner, extraRules: [String], testFiles: [String]) throws {
    self.scenario = scenario
    self.runner = runner
    self.extraRules = extraRules
    authorProperties = testFiles.isEmpty ? nil : try AuthorProperties(testFiles: testFiles, limits: runner.limits)
    generator = DragGenerator(
      externalItems: scenario.drag.items.compactMap { dragged in
        if case .external(let item) = dragged { return item }
        return nil
      })
  }

  /// Runs the drags; `progress` hears how many are done, now and then.
  public func run(_ options: Options, progress: ((Int) -> Void)? = nil) throws -> Report {
    let started = Date()
    var report = Report(scenario: scenario.file ?? scenario.name, seed: options.seed)
    report.authorProperties = authorProperties?.count ?? 0
    let host = try runner.makeHost(for: scenario, extraRules: extraRules)
    let checker = FuzzChecker(rules: host.rules, authorProperties: authorProperties)
    var random = SeededRandom(seed: options.seed)
    // The first drags' boards, to check that the same seed gives the same drags.
    var firstBoards: [Board] = []
    for number in stride(from: 1, through: options.drags, by: 1) {
      if let limit = options.maximumSeconds, Date().timeIntervalSince(started) >= limit {
        report.stoppedAtTimeLimit = true
        break
      }
      if (number - 1) % max(options.freshBoardEvery, 1) == 0, number > 1 { try host.replaceBoard(scenario.board) }
      let before = host.board
      let drag = generator.drag(on: before, using: &random)
      let outcome = Self.perform(drag, on: host)
      report.drags += 1
      report.steps += drag.steps.count
      report.outcomes[outcome, default: 0] += 1
      let run = FuzzChecker.Run(drag: drag, before: before, after: host.board, trace: host.trace, outcome: outcome)
      if firstBoards.count < Self.repeatedDrags { firstBoards.append(run.after) }
      if let failure = checker.check(run) {
        report.finding = finding(failure, drag: drag, number: number, board: before, checker: checker, options: options)
        break
      }
      if number % 100 == 0 { progress?(number) }
    }
    if report.finding == nil, let failure = try sameSeedSameDrags(options, boards: firstBoards) {
      report.finding = Finding(
        failure: failure, drag: 0, board: scenario.board, original: FuzzDrag(request: scenario.drag, steps: []),
        shrunk: FuzzDrag(request: scenario.drag, steps: []))
    }
    report.seconds = Date().timeIntervalSince(started)
    return report
  }

  /// How many drags a run makes again, on a fresh host, to check that its seed decides them.
  static let repeatedDrags = 20

  /// Makes the run's first drags again on a fresh host: each must leave the same board.
  private func sameSeedSameDrags(_ options: Options, boards: [Board]) throws -> FuzzFailure? {
    let host = try runner.makeHost(for: scenario, extraRules: extraRules)
    var random = SeededRandom(seed: options.seed)
    for (offset, expected) in boards.enumerated() {
      let drag = generator.drag(on: host.board, using: &random)
      _ = Self.perform(drag, on: host)
      if host.board != expected {
        return FuzzFailure(
          property: "the same seed gives the same drags", owner: .host,
          detail: "drag \(offset + 1) of seed \(options.seed) left another board the second time "
            + "(a rule that keeps state between drags, or reads time, can do this too)")
      }
    }
    return nil
  }

  /// Carries out a drag; a drag without a last drop or cancel is cancelled, as a
  /// scenario's is.
  static func perform(_ drag: FuzzDrag, on host: RuleHost) -> DropOutcome {
    do {
      if try host.beginDrag(drag.request).isRefused { return .refused }
      var outcome = DropOutcome.cancelled
      for step in drag.steps {
        if case .outcome(let ended) = try host.perform(step) { outcome = ended }
      }
      if drag.steps.last?.endsDrag != true { outcome = try host.cancel() }
      return outcome
    } catch {
      // The generator makes only drags the board allows; were one refused, the drag
      // still ends, so the next one can begin.
      if host.isDragging { _ = try? host.cancel() }
      return .cancelled
    }
  }

  // MARK: Shrinking

  private func finding(
    _ failure: FuzzFailure, drag: FuzzDrag, number: Int, board: Board, checker: FuzzChecker, options: Options
  ) -> Finding {
    let shrunk = shrink(drag, on: board, breaking: failure.property)
    var finding = Finding(failure: failure, drag: number, board: board, original: drag, shrunk: shrunk)
    // What the shrunk drag itself breaks: the same property, said of its own steps.
    if let again = reproduce(shrunk, on: board), again.property == failure.property { finding.failure = again }
    do {
      finding.file = try FuzzScenarioWriter(scenario: scenario, extraRules: extraRules).write(
        finding, seed: options.seed, into: options.outputDirectory)
    } catch {
      finding.writeError = "\(error)"
    }
    return finding
  }

  /// Replays a scenario, such as one a fuzz run wrote, with its own rules, and checks
  /// what a fuzz run checks: the property its drag breaks, or nil.
  public static func replay(_ scenario: Scenario, runner: ScenarioRunner, testFiles: [String] = []) throws
    -> FuzzFailure?
  {
    let fuzzer = try Fuzzer(scenario: scenario, runner: runner, extraRules: [], testFiles: testFiles)
    return fuzzer.reproduce(FuzzDrag(request: scenario.drag, steps: scenario.steps), on: scenario.board)
  }

  /// What `drag` breaks on a fresh host whose board is `board`, or nil.
  func reproduce(_ drag: FuzzDrag, on board: Board) -> FuzzFailure? {
    var fresh = scenario
    fresh.board = board
    guard let host = try? runner.makeHost(for: fresh, extraRules: extraRules) else { return nil }
    let checker = FuzzChecker(rules: host.rules, authorProperties: authorProperties)
    let before = host.board
    let outcome = Self.perform(drag, on: host)
    return checker.check(
      FuzzChecker.Run(drag: drag, before: before, after: host.board, trace: host.trace, outcome: outcome))
  }

  /// The smallest drag found that still breaks `property`: fewer items, fewer steps,
  /// plainer points, no modifiers at the start, tried until none of them helps, or until
  /// the shrinking has taken ``shrinkingTime`` (a rule that spends its deadline on every
  /// call would otherwise make each try slow).
  func shrink(_ drag: FuzzDrag, on board: Board, breaking property: String) -> FuzzDrag {
    var best = drag
    var tries = 0
    var improved = true
    let deadline = Date().addingTimeInterval(Self.shrinkingTime)
    while improved, tries < 2_000, Date() < deadline {
      improved = false
      for candidate in Self.simpler(than: best) where Date() < deadline {
        tries += 1
        if reproduce(candidate, on: board)?.property == property {
          best = candidate
          improved = true
          break
        }
      }
    }
    return best
  }

  /// The longest a finding is shrunk, in seconds.
  static let shrinkingTime: TimeInterval = 30

  /// Drags one step simpler than `drag`, the biggest cuts first.
  static func simpler(than drag: FuzzDrag) -> [FuzzDrag] {
    var candidates: [FuzzDrag] = []
    let ending = drag.steps.last?.endsDrag == true ? 1 : 0
    let body = Array(drag.steps.dropLast(ending))
    let end = Array(drag.steps.suffix(ending))
    // Halves, then single steps, from the front: what led up to the failure is usually shorter.
    var size = body.count / 2
    while size >= 1 {
      var start = 0
      while start + size <= body.count {
        var copy = drag
        copy.steps = Array(body[..<start]) + Array(body[(start + size)...]) + end
        candidates.append(copy)
        start += size
      }
      size /= 2
    }
    if drag.request.items.count > 1 {
      for offset in drag.request.items.indices {
        var copy = drag
        copy.request.items.remove(at: offset)
        candidates.append(copy)
      }
    }
    let standard = DragRequest(items: drag.request.items, modifiers: drag.request.modifiers)
    if drag.request.allowedOperations != standard.allowedOperations {
      var copy = drag
      copy.request.allowedOperations = standard.allowedOperations
      candidates.append(copy)
    }
    if !drag.request.modifiers.isEmpty {
      var copy = drag
      copy.request.modifiers = []
      candidates.append(copy)
    }
    for (offset, step) in body.enumerated() {
      guard case .at(let point) = step else { continue }
      let plain = Point(x: point.x.rounded(), y: point.y.rounded())
      guard plain != point else { continue }
      var copy = drag
      copy.steps[offset] = .at(plain)
      candidates.append(copy)
    }
    return candidates
  }
}
