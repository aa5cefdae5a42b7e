import DropRules
import DropRulesModel

/// The properties checked after every generated drag: the host's own promises, what a
/// rule set almost always means, and the author's own (`property` in a test file).
struct FuzzChecker {
  /// The rules, to read what each target type declares (`deletes`, `duplicates`) and
  /// which handlers it has.
  let rules: RuleSet
  /// The author's properties, checked after every performed drop; nil when there are none.
  let authorProperties: AuthorProperties?

  /// What one drag did, as the checks read it.
  struct Run {
    var drag: FuzzDrag
    var before: Board
    var after: Board
    var trace: [TraceStep]
    var outcome: DropOutcome
  }

  /// The first property the drag broke, or nil.
  func check(_ run: Run) -> FuzzFailure? {
    enterAndExitPairUp(run) ?? proposalsStayAllowed(run) ?? cancelledDragsChangeNothing(run)
      ?? copiesNeverTake(run) ?? noRuleError(run) ?? itemsAreKept(run) ?? targetsDoNotFlip(run)
      ?? authorsPropertiesHold(run)
  }

  // MARK: The host's promises

  /// Every `dropEntered` has exactly one `dropExited`, for a rule that has both.
  func enterAndExitPairUp(_ run: Run) -> FuzzFailure? {
    func paired(_ target: TargetID) -> Bool {
      guard let type = run.before.target(target)?.type, let rule = rules.rule(for: type) else { return false }
      return rule.implements(.dropEntered) && rule.implements(.dropExited)
    }
    var entered: TargetID?
    func failure(_ detail: String) -> FuzzFailure {
      FuzzFailure(property: "enter and exit pair up", owner: .host, detail: detail)
    }
    for step in run.trace {
      for call in step.calls where paired(call.target) {
        switch call.handler {
        case .dropEntered:
          if let open = entered {
            return failure("step \(step.number) entered \(call.target) while \(open) was entered and not exited")
          }
          entered = call.target
        case .dropExited:
          guard entered == call.target else {
            return failure("step \(step.number) exited \(call.target), which was not entered")
          }
          entered = nil
        default: break
        }
      }
    }
    return entered.map { failure("\($0) was entered and never exited") }
  }

  /// No step proposes an operation the drag does not allow at that moment.
  func proposalsStayAllowed(_ run: Run) -> FuzzFailure? {
    var allowed = run.drag.request.allowedOperations
    for step in run.trace {
      if let now = step.allowed { allowed = now }
      if let operation = step.proposal?.operation, !allowed.contains(operation) {
        return FuzzFailure(
          property: "proposals stay within the allowed operations", owner: .host,
          detail: "step \(step.number) proposed \(operation.rawValue), but the drag allows "
            + DragOperation.names(allowed))
      }
    }
    return nil
  }

  /// A drag that was cancelled, failed or refused leaves every target as it was, but
  /// its sources, which `dragEnded` may clean up: a source that moves or removes its own
  /// row that opens a target carries that target along, so its parent may change too,
  /// to the row's new container (none for a row taken off the board) and nothing else.
  func cancelledDragsChangeNothing(_ run: Run) -> FuzzFailure? {
    guard run.outcome != .performed else { return nil }
    let sources = Set(
      run.drag.request.items.compactMap { dragged -> TargetID? in
        guard case .board(let id) = dragged else { return nil }
        return run.before.place(of: id)?.container
      })
    for target in run.before.targets where !sources.contains(target.id) {
      guard let now = run.after.target(target.id) else { continue }
      var changes: [String] = []
      if now.items != target.items { changes.append("items \(target.items) -> \(now.items)") }
      if now.data != target.data { changes.append("data") }
      if now.parent != target.parent, !carriedByItsRow(target.id, to: now.parent, run, sources) {
        changes.append("parent \(target.parent ?? "none") -> \(now.parent ?? "none")")
      }
      if !changes.isEmpty {
        return FuzzFailure(
          property: "a drag that is not performed changes nothing", owner: .host,
          detail: "the drag ended \(run.outcome.rawValue), yet \(target.id) changed: "
            + changes.joined(separator: ", "))
      }
    }
    return nil
  }

  /// Whether `parent` is the parent the host gives `target` when the row that opens it,
  /// which sat in one of `sources` before the drag, moves: the container the row is in
  /// after the run, or nil when the row left the board.
  private func carriedByItsRow(_ target: TargetID, to parent: TargetID?, _ run: Run, _ sources: Set<TargetID>)
    -> Bool
  {
    let board = run.before
    guard let row = board.placedItems.first(where: { board.item($0)?.opens == target }),
      let place = board.place(of: row), sources.contains(place.container)
    else { return false }
    return run.after.place(of: row)?.container == parent
  }

  /// A drag performed as a copy leaves every dragged board item in its source.
  func copiesNeverTake(_ run: Run) -> FuzzFailure? {
    guard run.outcome == .performed, performedOperation(run) == .copy else { return nil }
    for case .board(let id) in run.drag.request.items {
      let source = run.before.place(of: id)?.container
      let now = run.after.place(of: id)?.container
      if source != now {
        return FuzzFailure(
          property: "a copy never takes from its source", owner: .host,
          detail: "\(id) left \(source ?? "nowhere") for \(now ?? "nowhere") in a copy")
      }
    }
    return nil
  }

  // MARK: What rules almost always mean

  /// No handler raised or ran out of its budget.
  func noRuleError(_ run: Run) -> FuzzFailure? {
    guard let diagnostic = run.trace.lazy.flatMap(\.diagnostics).first else { return nil }
    var failure = FuzzFailure(property: "no rule error", owner: .rule, detail: diagnostic.message)
    failure.file = diagnostic.file
    failure.line = diagnostic.line
    if let handler = diagnostic.handler {
      failure.detail += " (in \(handler.rawValue)" + (diagnostic.target.map { " of \($0)" } ?? "") + ")"
    }
    return failure
  }

  /// A performed drop neither loses a board item nor leaves more than it brought, unless
  /// the target that took it declares that it deletes or duplicates.
  func itemsAreKept(_ run: Run) -> FuzzFailure? {
    guard run.outcome == .performed else { return nil }
    let destination = run.trace.last?.calls.last(where: { $0.handler == .performDrop })?.target
    let effects = destination.flatMap { run.before.target($0)?.type }.flatMap { rules.rule(for: $0)?.effects } ?? []
    let dragged = Set(run.drag.request.items.map(\.id))
    let before = Set(run.before.placedItems)
    let after = Set(run.after.placedItems)
    let tookOutside = destination == nil
    let lost = before.subtracting(after).filter { !(tookOutside && dragged.contains($0)) }
    if !lost.isEmpty, !effects.contains(.deletes) {
      return FuzzFailure(
        property: "a drop keeps every item", owner: .rule,
        detail: "the drop into \(destination ?? "another app") lost " + lost.sorted().joined(separator: ", ")
          + " (a target that deletes says so: deletes = true)",
        file: destination.flatMap { ruleFile(of: $0, on: run.before) })
    }
    let added = after.subtracting(before)
    if added.count > dragged.count, !effects.contains(.duplicates) {
      return FuzzFailure(
        property: "a drop keeps every item", owner: .rule,
        detail: "the drop of \(dragged.count) item(s) into \(destination ?? "another app") added \(added.count): "
          + added.sorted().joined(separator: ", ") + " (a target that duplicates says so: duplicates = true)",
        file: destination.flatMap { ruleFile(of: $0, on: run.before) })
    }
    return nil
  }

  /// The target under the pointer does not go from one target to another and back while
  /// the pointer moves less than a pixel and stays in the same frames.
  func targetsDoNotFlip(_ run: Run) -> FuzzFailure? {
    // The frames under a point are found only for points that barely moved: a scan of
    // the board per step would make a big board slow to fuzz.
    func frames(at point: Point) -> [Int] {
      run.before.targets.indices.filter { run.before.targets[$0].frame.contains(point) }
    }
    var anchor: Point?
    var anchorFrames: [Int]?
    var seen: [TargetID?] = []
    for step in run.trace {
      guard case .step(.at(let point)) = step.action else {
        anchor = nil
        seen = []
        continue
      }
      if let start = anchor, abs(point.x - start.x) < 1, abs(point.y - start.y) < 1 {
        let startFrames = anchorFrames ?? frames(at: start)
        anchorFrames = startFrames
        if frames(at: point) == startFrames {
          seen.append(step.target)
        } else {
          anchor = point
          anchorFrames = nil
          seen = [step.target]
          continue
        }
      } else {
        anchor = point
        anchorFrames = nil
        seen = [step.target]
        continue
      }
      if seen.count >= 3, let back = seen.last, let middle = seen.dropLast().last, middle != back,
        seen.dropLast(2).contains(where: { $0 == back })
      {
        let names = [back, middle].map { $0 ?? "no target" }
        return FuzzFailure(
          property: "the target does not flip", owner: .rule,
          detail: "at step \(step.number) the target went back to \(names[0]) from \(names[1]) while the pointer "
            + "moved less than a pixel inside the same frames",
          file: back.flatMap { ruleFile(of: $0, on: run.before) })
      }
    }
    return nil
  }

  // MARK: The author's

  func authorsPropertiesHold(_ run: Run) -> FuzzFailure? {
    guard run.outcome == .performed, let authorProperties else { return nil }
    return authorProperties.check(run.after)
  }

  // MARK: Reading a run

  /// The operation the drop performed: the last proposal before it.
  func performedOperation(_ run: Run) -> DragOperation? {
    run.trace.last(where: { $0.proposal != nil })?.proposal?.operation
  }

  func ruleFile(of target: TargetID, on board: Board) -> String? {
    board.target(target).flatMap { rules.rule(for: $0.type)?.file }
  }
}
