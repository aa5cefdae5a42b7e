/// A rule error, caught and turned into a safe default, with everything an author
/// needs to find it.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
  /// What went wrong, for the rule's author.
  public var message: String
  /// The rule file the error points at, when known.
  public var file: String?
  /// The line in ``file``.
  public var line: Int?
  /// The handler that raised.
  public var handler: Handler?
  /// The target the handler ran for.
  public var target: TargetID?
  /// The 1-based step of the drag during which the error happened; 0 for its start.
  public var step: Int?
  /// Lua's traceback at the error, or empty.
  public var traceback: String
  /// The limit the call spent, when it ended at one (the message names its setting).
  public var limit: RuleLimit?

  /// A diagnostic; only the message is required.
  public init(
    message: String, file: String? = nil, line: Int? = nil, handler: Handler? = nil, target: TargetID? = nil,
    step: Int? = nil, traceback: String = "", limit: RuleLimit? = nil
  ) {
    self.message = message
    self.file = file
    self.line = line
    self.handler = handler
    self.target = target
    self.step = step
    self.traceback = traceback
    self.limit = limit
  }

  /// `file:line: message (in handler of target, step n)`.
  public var description: String {
    var text = ""
    if let file { text += line.map { "\(file):\($0): " } ?? "\(file): " }
    text += message
    var context: [String] = []
    if let handler { context.append(handler.rawValue + (target.map { " of \($0)" } ?? "")) }
    if let step { context.append(step == 0 ? "at drag start" : "step \(step)") }
    if !context.isEmpty { text += " (in " + context.joined(separator: ", ") + ")" }
    return text
  }
}

/// One handler call made by the host, and what it returned.
public struct HandlerCall: Hashable, Sendable {
  /// The handler called.
  public var handler: Handler
  /// The target it was called for.
  public var target: TargetID
  /// The item `canDrag` was asked about.
  public var item: ItemID?
  /// What the handler returned; nil when it raised.
  public var value: HandlerValue?
  /// What the handler printed, in order.
  public var printed: [String] = []

  /// The result as the trace shows it (`true`, `move`, `{ index = 2, operation = copy }`),
  /// or `error` when the handler raised.
  public var result: String { value?.description ?? "error" }
}

/// What a step of a drag did.
public enum StepAction: Hashable, Sendable, CustomStringConvertible {
  /// The drag's start (step 0): `canDrag` and `dragOperations` of the sources.
  case begin([ItemID])
  /// A step of the drag once it began.
  case step(DragStep)

  /// The step as written: `begin drag of a, b`, `at (50, 50)`, `over day-13 index 2`, `drop`.
  public var description: String {
    switch self {
    case .begin(let items): "begin drag of " + items.joined(separator: ", ")
    case .step(let step): step.description
    }
  }
}

/// One limit on the operations a drag allows, and where it came from.
public struct OperationLimit: Hashable, Sendable, CustomStringConvertible {
  /// The source target whose `dragOperations` set the limit; nil for the drag's own
  /// `allowedOperations`.
  public var source: TargetID?
  /// The operations this limit allows.
  public var operations: Set<DragOperation>

  /// `the drag allows copy, move` or `source shelf allows copy (dragOperations)`.
  public var description: String {
    let allowed = "allows " + DragOperation.names(operations)
    return source.map { "source \($0) \(allowed) (dragOperations)" } ?? "the drag \(allowed)"
  }
}

/// What happened during one step of a drag.
public struct TraceStep: Hashable, Sendable {
  /// The step's 1-based number within the drag.
  public var number: Int
  /// What the step did: the drag's start, or a ``DragStep``.
  public var action: StepAction
  /// The target under the pointer after the step, if any.
  public var target: TargetID?
  /// Where the pointer is on the board after a pointer or modifier step; nil off the
  /// board and on steps that do not negotiate.
  public var pointer: Point?
  /// The handler calls the step made, in order.
  public var calls: [HandlerCall] = []
  /// The negotiated proposal after a pointer or modifier step.
  public var proposal: Proposal?
  /// The insertion index a drop at this step would pass to performDrop, when there is one.
  public var index: Int?
  /// The item under the pointer and the third of it, when a drop at this step would
  /// see them (`info.over`, `info.edge`).
  public var over: ItemID?
  /// The third of ``over`` the pointer is over.
  public var edge: ItemEdge?
  /// Items `canDrag` refused, on the begin step.
  public var refused: [ItemID] = []
  /// The limits that made the allowed operations, when the step set them.
  public var limits: [OperationLimit] = []
  /// The operations the drag allows after the step, when the step changed them.
  public var allowed: Set<DragOperation>?
  /// Set when the negotiation changed the rule's proposal.
  public var downgrade: Downgrade?
  /// On a pointer step: the targets under the pointer that the hit-test passed over
  /// before the one it entered (all of them when it entered none), in the order it
  /// prefers them, innermost first, each with the reason.
  public var skipped: [SkippedTarget] = []
  /// How many more targets the hit-test passed over than ``skipped`` names (it names at
  /// most 50, the innermost).
  public var skippedOmitted = 0
  /// The rule errors of the step.
  public var diagnostics: [Diagnostic] = []
  /// How many rule errors of the step the trace left out: a drag keeps its first
  /// ``DragEngine/maximumDiagnosticsPerDrag`` errors and counts the rest.
  public var diagnosticsOmitted = 0
  /// What rule code printed during the step, in order; each call's own lines are also
  /// in its ``HandlerCall/printed``.
  public var printed: [String] = []
  /// The outcome, on the final step.
  public var outcome: DropOutcome?
  /// Why the drop was not performed, when the final step is a drop that failed or was
  /// cancelled.
  public var outcomeReason: OutcomeReason?
  /// What the step did, in plain English, for a screen reader: `Picked up Standup.`,
  /// `Over Monday 13: move, position 2.`, `Dropped into Monday 13.` (see
  /// ``TraceStep/announce(on:)``).
  public var announcement: String?
  /// Closed containers a rule spring-loaded during the step (`open = true`): the targets
  /// inside them take drops for the rest of the drag.
  public var springLoaded: [TargetID] = []
  /// On the begin step: what the user drags, as the source's `dragPreview` describes
  /// it, else the first item's name and the count.
  public var preview: DragPreview?
}

/// What a drag shows under the pointer (SwiftUI's `draggable(_:preview:)`, UIKit's
/// `previewForLifting`): a title, and optionally a subtitle and a badge.
public struct DragPreview: Hashable, Sendable, Codable {
  /// The main line: `Standup`.
  public var title: String
  /// A second line: `Monday 13, 9:00`.
  public var subtitle: String?
  /// A corner badge, usually the count of dragged items: `3`.
  public var badge: String?

  /// A preview with a title, and optionally a subtitle and a badge.
  public init(title: String, subtitle: String? = nil, badge: String? = nil) {
    self.title = title
    self.subtitle = subtitle
    self.badge = badge
  }

  /// The preview of a drag whose source has no `dragPreview`: the first item's name, and
  /// the count as the badge when there are several; nil for no items.
  static func standard(for items: [ItemID], name: (ItemID) -> String) -> DragPreview? {
    guard let first = items.first else { return nil }
    return DragPreview(
      title: TextCap.presentation.cut(name(first)),
      badge: items.count > 1 ? String(items.count) : nil)
  }

  /// The preview with each field cut to ``TextCap/presentation``.
  var cappedForHost: DragPreview {
    DragPreview(
      title: TextCap.presentation.cut(title), subtitle: subtitle.map(TextCap.presentation.cut),
      badge: badge.map(TextCap.presentation.cut))
  }

  /// `{ badge = "3", subtitle = "Monday 13", title = "Standup" }`, as the trace shows
  /// what `dragPreview` returned.
  public var luaDescription: String {
    var fields: [String] = []
    if let badge { fields.append("badge = \"\(badge)\"") }
    if let subtitle { fields.append("subtitle = \"\(subtitle)\"") }
    fields.append("title = \"\(title)\"")
    return "{ " + fields.joined(separator: ", ") + " }"
  }

  /// `Standup (Monday 13) [3]`.
  public var description: String {
    title + (subtitle.map { " (\($0))" } ?? "") + (badge.map { " [\($0)]" } ?? "")
  }
}
