import DropRules
import DropRulesModel
import DropRulesTools

/// Evaluates a rule set over a scenario's board, cell by cell, on one host whose board
/// is put back after every cell: nothing is committed.
///
/// Rules that keep state in their own variables between drags can make a cell depend on
/// the cells before it; the cells run in a fixed order, so the same rules give the same
/// table.
public struct DecisionTableBuilder {
  /// The most cells evaluated; a bigger space is refused, naming its size.
  public var maximumCells = 20_000
  /// The setting that raises the limit, as messages name it; the command line names its flag.
  public static let maximumCellsSetting = "DecisionTableBuilder.maximumCells"
  /// The most seconds spent on cells; the cells left when it has passed are not
  /// computed, and the table says it stopped at the time limit. nil or infinity: no
  /// limit; NaN or 0: no cell. A cell that began runs to its end, so the table stops
  /// within one cell of the limit.
  public var maximumSeconds: Double?
  /// A rule whose calls ran out of time this many times is given up on: the later cells
  /// over its targets, or dragging from them, are not computed. A rule that spends its
  /// whole deadline on every call cost a cell a second (a 20,000-cell table, 83 minutes).
  public static let timedOutCallsBeforeGivingUp = 3
  private let scenario: Scenario
  private let runner: ScenarioRunner
  private let extraRules: [String]

  /// A builder for `scenario`'s board and rules, with `extraRules` loaded after them.
  public init(scenario: Scenario, runner: ScenarioRunner, extraRules: [String]) {
    self.scenario = scenario
    self.runner = runner
    self.extraRules = extraRules
  }

  /// The operation sets each cell is tried with: the default, then each alone.
  static let operationSets: [Set<DragOperation>] = [[.move, .copy], [.move], [.copy]]

  /// A decision space larger than the limit.
  public struct TooManyCells: Error, CustomStringConvertible {
    /// How many cells the space has.
    public var cells: Int
    /// The limit it is over.
    public var limit: Int
    /// What to do about it.
    public var description: String {
      "the decision space has \(cells) cells, more than the limit of \(limit) (raise it with \(DecisionTableBuilder.maximumCellsSetting))"
    }
  }

  /// Builds the table: every cell without modifiers, then with each modifier alone,
  /// keeping a modifier's cells only where the rules read it (some decision changed).
  public func build() throws -> DecisionTable {
    let host = try runner.makeHost(for: scenario, extraRules: extraRules)
    let board = host.board
    let dragged = draggables(on: board)
    let places = board.targets.flatMap { target in positions(of: target).map { (target, $0.position, $0.step) } }
    let base = places.count * dragged.count * Self.operationSets.count
    let total = base * (1 + Modifier.allCases.count)
    guard total <= maximumCells else { throw TooManyCells(cells: total, limit: maximumCells) }
    var watch = TableWatch(host: host, board: board, maximumSeconds: maximumSeconds)
    func evaluate(_ modifiers: Set<Modifier>) throws -> [(DecisionTable.Cell, DecisionTable.Decision)] {
      var rows: [(DecisionTable.Cell, DecisionTable.Decision)] = []
      rows.reserveCapacity(base)
      for (target, position, step) in places {
        for (name, item) in dragged {
          for operations in Self.operationSets {
            let cell = DecisionTable.Cell(
              target: target.id, targetType: target.type, dragged: name, operations: operations,
              modifiers: modifiers, position: position)
            if let why = watch.reasonToSkip(over: target, dragging: item) {
              rows.append((cell, .notComputed(why)))
              continue
            }
            let request = DragRequest(items: [item], allowedOperations: operations, modifiers: modifiers)
            var timedOut: [TargetID] = []
            rows.append((cell, try decide(request, step: step, on: host, board: board, timedOut: &timedOut)))
            watch.count(timedOut)
          }
        }
      }
      return rows
    }
    var rows = try evaluate([])
    var read: [Modifier] = []
    for modifier in Modifier.allCases {
      let held = try evaluate([modifier])
      // A cell not computed under either set of modifiers tells nothing of the modifier.
      let changed = zip(held, rows).contains { held, plain in
        held.1.notComputed == nil && plain.1.notComputed == nil && held.1 != plain.1
      }
      if changed {
        read.append(modifier)
        rows += held
      }
    }
    var table = DecisionTable(rows: rows, modifiersRead: read, cellsEvaluated: total)
    table.stoppedAtTimeLimit = watch.stopped
    table.givenUp = watch.givenUp
    return table
  }

  /// What can be dragged: every board item, the scenario's items from another app, and a
  /// plain-text snippet, by the names the table shows.
  func draggables(on board: Board) -> [(String, DraggedItem)] {
    var list = board.placedItems.map { ($0, DraggedItem.board($0)) }
    var external = scenario.drag.items.compactMap { dragged -> DragItem? in
      if case .external(let item) = dragged { return item }
      return nil
    }
    external.append(
      DragItem(
        id: "snippet", name: "Snippet",
        representations: [Representation(type: "public.plain-text", payload: "a snippet")]))
    for item in external where board.item(item.id) == nil && !list.contains(where: { $0.0 == item.id }) {
      list.append((item.id, .external(item)))
    }
    return list
  }

  /// The positions of a target and the step that puts the pointer there: its centre (its
  /// children left out) for a target without rows; before, into and after each row, and
  /// the end, for a list, where the points lie inside its frame.
  func positions(of target: DropTarget) -> [(position: DecisionTable.Position, step: DragStep)] {
    guard let extent = target.itemExtent, extent > 0 else { return [(.whole, .over(target.id, index: nil))] }
    let frame = target.frame
    func point(_ along: Double) -> Point? {
      let point =
        target.axis == .horizontal
        ? Point(x: frame.x + along, y: frame.y + frame.height / 2)
        : Point(x: frame.x + frame.width / 2, y: frame.y + along)
      return frame.contains(point) ? point : nil
    }
    var result: [(DecisionTable.Position, DragStep)] = []
    for row in 1...max(target.items.count, 1) where row <= target.items.count {
      let start = Double(row - 1) * extent
      if let at = point(start + extent / 6) { result.append((.before(row), .at(at))) }
      if let at = point(start + extent / 2) { result.append((.into(row), .at(at))) }
      if let at = point(start + extent * 5 / 6) { result.append((.after(row), .at(at))) }
    }
    if let at = point(Double(target.items.count) * extent + extent / 2) { result.append((.end, .at(at))) }
    return result.isEmpty ? [(.whole, .over(target.id, index: nil))] : result
  }

  /// Drags `request` to `step`, drops where the proposal is an operation (else cancels),
  /// and puts the board back.
  /// `timedOut` gets the target of each call that ran out of time.
  func decide(_ request: DragRequest, step: DragStep, on host: RuleHost, board: Board, timedOut: inout [TargetID])
    throws -> DecisionTable.Decision
  {
    defer {
      if host.isDragging { _ = try? host.cancel() }
      try? host.replaceBoard(board)
    }
    // Read before every return: the trace is the cell's drag's until the next begins.
    func readTimeOuts() {
      for diagnostic in host.trace.lazy.flatMap(\.diagnostics) where diagnostic.limit == .time {
        if let target = diagnostic.target { timedOut.append(target) }
      }
    }
    guard try !host.beginDrag(request).isRefused else {
      readTimeOuts()
      return DecisionTable.Decision(entered: nil, proposal: nil, outcome: .refused, reason: "canDrag refused")
    }
    defer { readTimeOuts() }
    let proposal = try host.perform(step).proposal ?? .cancel
    let entered = host.lastStep?.target
    let outcome = proposal.operation != nil ? try host.drop() : try host.cancel()
    var reason: String?
    if outcome != .performed, proposal.operation != nil {
      reason = host.trace.last?.outcomeReason?.description
    }
    if let error = host.trace.lazy.flatMap(\.diagnostics).first { reason = error.description }
    return DecisionTable.Decision(entered: entered, proposal: proposal, outcome: outcome, reason: reason)
  }
}

/// What `build` watches as cells run: the time spent, and each rule's calls that ran out
/// of time, to stop at `maximumSeconds` and give up on a rule after
/// ``DecisionTableBuilder/timedOutCallsBeforeGivingUp`` of them.
private struct TableWatch {
  let host: RuleHost
  let board: Board
  let maximumSeconds: Double?
  let clock = ContinuousClock()
  let started: ContinuousClock.Instant
  /// Calls that ran out of time, by rule (its target type; `*` for the fallback).
  var timedOutCalls: [String: Int] = [:]
  var givenUp: [DecisionTable.GivenUpRule] = []
  var stopped = false

  init(host: RuleHost, board: Board, maximumSeconds: Double?) {
    self.host = host
    self.board = board
    self.maximumSeconds = maximumSeconds
    started = clock.now
  }

  /// Why the next cell is not computed, or nil to compute it.
  mutating func reasonToSkip(over target: DropTarget, dragging item: DraggedItem) -> String? {
    if !stopped, let maximumSeconds {
      // Compared as doubles, never made a Duration (which traps on NaN): a limit that is
      // not a number stops at once, an infinite one never.
      let elapsed = (clock.now - started).components
      let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
      if !(seconds < maximumSeconds) { stopped = true }
    }
    if stopped { return "stopped at the time limit (--max-seconds)" }
    var types = [target.type]
    if case .board(let id) = item, let source = board.place(of: id).flatMap({ board.target($0.container) }) {
      types.append(source.type)
    }
    for type in types {
      guard let rule = host.rules.rule(for: type)?.targetType, givenUp.contains(where: { $0.rule == rule }) else {
        continue
      }
      return
        "gave up on the rule of \(rule.capped(.name)): \(DecisionTableBuilder.timedOutCallsBeforeGivingUp) calls ran out of time"
    }
    return nil
  }

  /// Counts the calls of a cell that ran out of time against their rules.
  mutating func count(_ targets: [TargetID]) {
    for target in targets {
      guard let type = board.target(target)?.type, let rule = host.rules.rule(for: type) else { continue }
      let calls = timedOutCalls[rule.targetType, default: 0] + 1
      timedOutCalls[rule.targetType] = calls
      if calls == DecisionTableBuilder.timedOutCallsBeforeGivingUp {
        givenUp.append(DecisionTable.GivenUpRule(rule: rule.targetType, file: rule.file))
      }
    }
  }
}
