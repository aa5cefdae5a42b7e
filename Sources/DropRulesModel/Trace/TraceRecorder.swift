/// Records a drag as structured events, in order, and builds ``TraceStep``s only when
/// the trace is read: a pointer step formats nothing and, once the event buffer has
/// grown to the drag's length, allocates nothing.
struct TraceRecorder {
  enum Event {
    case step(StepAction)
    /// A handler call: the handler, its target, the item canDrag was asked about, and
    /// what it returned (nil when it raised).
    case call(Handler, TargetID, item: ItemID?, HandlerValue?)
    case printed(String)
    indirect case diagnostic(Diagnostic)
    /// A rule error the drag had no room left for.
    case diagnosticOmitted
    /// The negotiated proposal; `searched` when the step searched the board, so that the
    /// skipped targets recorded before it are the step's own. A pointer step that stayed
    /// inside a target nothing cuts into does not search: the targets under the pointer
    /// are those of the last search, and so are its skips.
    case proposal(Proposal, index: Int?, downgrade: Downgrade?, target: TargetID?, pointer: Point?, searched: Bool)
    /// The item a drop would land on, and its third.
    case over(ItemID, ItemEdge)
    case refused(ItemID)
    case limit(OperationLimit)
    case allowed(Set<DragOperation>)
    /// A target a search passed over (recorded before the step's proposal).
    case skipped(SkippedTarget)
    /// How many more targets the search passed over than it named.
    case skipsOmitted(Int)
    case outcome(DropOutcome, OutcomeReason?)
    /// A rule spring-loaded this closed container (`open = true`).
    case springLoaded(TargetID)
    /// What the source's `dragPreview` said the user drags (indirect, as diagnostics are:
    /// every pointer step records events of this enum).
    indirect case preview(DragPreview)
    /// What the rule's `announce` handler said of the step, instead of the built-in.
    case announcement(String)
  }

  private(set) var events: [Event] = []
  private(set) var stepCount = 0

  mutating func reset() {
    events.removeAll(keepingCapacity: true)
    stepCount = 0
  }

  mutating func record(_ event: Event) {
    if case .step = event { stepCount += 1 }
    events.append(event)
  }

  /// The steps, in order. A step's target is the one entered after it. The begin step
  /// (number 0) is kept only when something happened in it.
  var steps: [TraceStep] { Self.steps(of: events[...], expecting: stepCount) }

  /// The steps `events` record: ``steps`` of a recorder that recorded just these.
  static func steps(of events: ArraySlice<Event>, expecting count: Int) -> [TraceStep] {
    var steps: [TraceStep] = []
    steps.reserveCapacity(count)
    var entered: TargetID?
    var numbered = 0
    // A handler's lines are recorded just before its call.
    var unclaimedLines = 0
    // The skips of the last search, and whether the step being read searched.
    var lastSkipped: [SkippedTarget] = []
    var lastOmitted = 0
    var searched = false
    func finishStep() {
      guard let last = steps.indices.last else { return }
      if searched {
        lastSkipped = steps[last].skipped
        lastOmitted = steps[last].skippedOmitted
      } else if case .step(.at) = steps[last].action {
        steps[last].skipped = lastSkipped
        steps[last].skippedOmitted = lastOmitted
      }
      searched = false
    }
    for event in events {
      if case .step(let action) = event {
        finishStep()
        unclaimedLines = 0
        if let first = steps.first, steps.count == 1, case .begin = first.action, first.isQuiet { steps = [] }
        if case .begin = action {
          steps.append(TraceStep(number: 0, action: action))
        } else {
          numbered += 1
          steps.append(TraceStep(number: numbered, action: action, target: entered))
        }
        continue
      }
      guard !steps.isEmpty else { continue }
      let last = steps.count - 1
      switch event {
      case .step: break
      case .call(let handler, let target, let item, let value):
        let printed = Array(steps[last].printed.suffix(unclaimedLines))
        unclaimedLines = 0
        steps[last].calls.append(
          HandlerCall(handler: handler, target: target, item: item, value: value, printed: printed))
      case .printed(let line):
        steps[last].printed.append(line)
        unclaimedLines += 1
      case .diagnostic(let diagnostic): steps[last].diagnostics.append(diagnostic)
      case .diagnosticOmitted: steps[last].diagnosticsOmitted += 1
      case .proposal(let proposal, let index, let downgrade, let target, let pointer, let didSearch):
        searched = didSearch
        steps[last].proposal = proposal
        steps[last].pointer = pointer
        steps[last].index = index
        steps[last].downgrade = downgrade
        steps[last].target = target
        entered = target
      case .over(let item, let edge):
        steps[last].over = item
        steps[last].edge = edge
      case .refused(let item): steps[last].refused.append(item)
      case .limit(let limit): steps[last].limits.append(limit)
      case .allowed(let allowed): steps[last].allowed = allowed
      case .skipped(let skipped): steps[last].skipped.append(skipped)
      case .skipsOmitted(let count): steps[last].skippedOmitted = count
      case .springLoaded(let target): steps[last].springLoaded.append(target)
      case .preview(let preview): steps[last].preview = preview
      case .announcement(let text): steps[last].announcement = text
      case .outcome(let outcome, let reason):
        steps[last].outcome = outcome
        steps[last].outcomeReason = reason
        steps[last].target = nil
        entered = nil
      }
    }
    finishStep()
    if let first = steps.first, steps.count == 1, case .begin = first.action, first.isQuiet { steps = [] }
    return steps
  }
}

extension TraceStep {
  /// A begin step in which nothing was called, refused or limited.
  fileprivate var isQuiet: Bool {
    calls.isEmpty && diagnostics.isEmpty && diagnosticsOmitted == 0 && printed.isEmpty && refused.isEmpty
      && limits.isEmpty && outcome == nil
  }
}
