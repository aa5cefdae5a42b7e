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
    func evaluate(_ modifiers: Set<Modifier>) throws -> [(DecisionTable.Cell, DecisionTable.Decision)] {
      var rows: [(DecisionTable.Cell, DecisionTable.Decision)] = []
      rows.reserveCapacity(base)
      for (target, position, step) in places {
        for (name, item) in dragged {
          for operations in Self.operationSets {
            let cell = DecisionTable.Cell(
              target: target.id, targetType: target.type, dragged: name, operations: operations,
              modifiers: modifiers, position: position)
            let request = DragRequest(items: [item], allowedOperations: operations, modifiers: modifiers)
            rows.append((cell, try decide(request, step: step, on: host, board: board)))
          }
        }
      }
      return rows
    }
    var rows = try evaluate([])
    var read: [Modifier] = []
    for modifier in Modifier.allCases {
      let held = try evaluate([modifier])
      if zip(held, rows).contains(where: { $0.1 != $1.1 }) {
        read.append(modifier)
        rows += held
      }
    }
    return DecisionTable(rows: rows, modifiersRead: read, cellsEvaluated: total)
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
  func decide(_ request: DragRequest, step: DragStep, on host: RuleHost, board: Board) throws
    -> DecisionTable.Decision
  {
    defer {
      if host.isDragging { _ = try? host.cancel() }
      try? host.replaceBoard(board)
    }
    guard try !host.beginDrag(request).isRefused else {
      return DecisionTable.Decision(entered: nil, proposal: nil, outcome: .refused, reason: "canDrag refused")
    }
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
