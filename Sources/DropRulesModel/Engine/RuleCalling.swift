/// The callbacks a rule can implement: SwiftUI's DropDelegate for targets of its type,
/// and the drag source's side for drags that start from them.
public enum Handler: String, Sendable, CaseIterable, Hashable {
  case validateDrop
  case dropEntered
  case dropUpdated
  case dropExited
  case performDrop
  /// `canDrag(item, source)`: whether a board item may be dragged.
  case canDrag
  /// `dragOperations(info, source)`: the operations the source allows.
  case dragOperations
  /// `dragEnded(info, source)`: how the drag ended, once per source target.
  case dragEnded
  /// `dragPreview(items, source)`: what the drag shows under the pointer, once the items
  /// are gathered (`{ title = ..., subtitle = ..., badge = ... }`).
  case dragPreview
  /// `announce(event, info, target)`: what a screen reader says of a step, instead of
  /// the built-in sentence (read-only, like the last dropExited).
  case announce

  /// Whether the handler belongs to the drag source's side.
  public var isSourceHandler: Bool {
    switch self {
    case .canDrag, .dragOperations, .dragEnded, .dragPreview: true
    default: false
    }
  }

  /// Whether the handler is one of DropDelegate's: a rule with one takes drops.
  public var isDropHandler: Bool {
    switch self {
    case .validateDrop, .dropEntered, .dropUpdated, .dropExited, .performDrop: true
    default: false
    }
  }

  /// Whether a rule with these handlers makes its targets drop targets: it has a drop
  /// handler, or no handler at all (a rule of defaults). A rule of source handlers only
  /// governs drags *from* its targets and leaves drops to the targets underneath.
  package static func takesDrops(implementing implements: (Handler) -> Bool) -> Bool {
    allCases.contains { $0.isDropHandler && implements($0) } || !allCases.contains(where: implements)
  }
}

/// A loaded rule, as the engine knows it: an index into the rule set.
public typealias RuleID = Int

/// What a handler returned, read without copying the value out of the rule's language.
public enum HandlerValue: Hashable, Sendable, Codable {
  /// nil, or no value.
  case nothing
  case boolean(Bool)
  /// A proposal word, or `{ operation = ..., index = n }`.
  case proposal(Proposal, index: Int?)
  /// `dropUpdated`'s `{ operation = ..., open = true }`: a proposal that also spring-loads
  /// the container under the pointer, so its inner targets take drops for the rest of
  /// the drag.
  case springLoading(Proposal, index: Int?)
  /// What `dragOperations` allowed.
  case operations(Set<DragOperation>)
  /// What `dragPreview` described. Indirect: every handler's answer is this enum, and a
  /// preview's three strings would make each one larger to copy on every pointer step.
  indirect case preview(DragPreview)
  /// What `announce` said.
  case text(String)
  /// Anything else, as the trace shows it.
  case other(String)

  /// As the trace shows it: `true`, `move`, `{ index = 2, operation = copy }`, `nil`.
  public var description: String {
    switch self {
    case .nothing: "nil"
    case .boolean(let flag): String(flag)
    case .proposal(let proposal, nil): proposal.rawValue
    case .proposal(let proposal, let index?): "{ index = \(index), operation = \(proposal.rawValue) }"
    case .springLoading(let proposal, nil): "{ open = true, operation = \(proposal.rawValue) }"
    case .springLoading(let proposal, let index?):
      "{ index = \(index), open = true, operation = \(proposal.rawValue) }"
    case .operations(let operations): "{ " + DragOperation.names(operations) + " }"
    case .preview(let preview): preview.luaDescription
    case .text(let text): "\"" + text + "\""
    case .other(let text): text
    }
  }

  /// Lua truthiness: everything but nil and false.
  var isTruthy: Bool {
    switch self {
    case .nothing, .boolean(false): false
    default: true
    }
  }
}

extension HandlerValue {
  /// This answer with its texts cut as the host keeps them (``TextCap``): a rule file's
  /// binding may hand over megabytes in one character.
  var cappedForHost: HandlerValue {
    switch self {
    case .text(let text): .text(TextCap.presentation.cut(text))
    case .other(let text): .other(TextCap.name.cut(text))
    case .preview(let preview): .preview(preview.cappedForHost)
    default: self
    }
  }
}

extension HandlerResult {
  /// This result with its texts cut as the host keeps them (``TextCap``).
  var cappedForHost: HandlerResult {
    switch self {
    case .notImplemented: return self
    case .returned(let value): return .returned(value.cappedForHost)
    case .failed(var diagnostic):
      diagnostic.message = TextCap.message.cut(diagnostic.message)
      return .failed(diagnostic)
    }
  }
}

/// The result of asking a rule to run a handler.
public enum HandlerResult: Sendable, Codable {
  /// The rule has no such handler.
  case notImplemented
  case returned(HandlerValue)
  /// The handler raised; the diagnostic says where and why.
  case failed(Diagnostic)
}

/// What a handler sees besides its target: the pointer and, at the end, the drop.
public struct HandlerContext: Sendable, Equatable, Codable {
  /// The pointer in global coordinates.
  public var pointer: Point
  /// The pointer relative to the target's origin.
  public var location: Point
  /// The insertion index, when the target has an item extent or the step names one.
  public var index: Int?
  /// The negotiated operation, in performDrop.
  public var operation: DragOperation?
  /// How the drag ended, in the final dropExited and in dragEnded.
  public var outcome: DropOutcome?
  // Items and targets are positions here, not ids: the context stays a plain value that
  // costs nothing to make and copy on every pointer step.
  /// The 1-based place, in the target's items, of the item under the pointer, and the
  /// third of it the pointer is over, in targets with an item extent.
  public var over: Int?
  /// The third of the item at ``over`` the pointer is over.
  public var edge: ItemEdge?
  /// The 1-based place, in the source's items, of the item `canDrag` is asked about.
  public var item: Int?
  /// Whether the pointer is over another app, off the board.
  public var outside = false
  /// The board position of the target that took the drop, in dragEnded.
  public var destination: Int?
  /// Milliseconds the pointer has rested on the current target since it was entered
  /// (`wait` steps advance the clock), in the current target's handlers; nil in others.
  public var hoverTime: Int?
  /// Whether a drop here would put a target inside itself: a dragged item stands for
  /// the target, or an ancestor of it, or of the target the item under the pointer
  /// stands for (`info.wouldContainItself`). Set in the current target's handlers.
  public var wouldContainItself = false
  /// What an `announce` call is asked to say.
  public var announcing: AnnouncementEvent?

  /// A context at this pointer; the host fills in the rest as the call needs it.
  public init(
    pointer: Point, location: Point, index: Int? = nil, operation: DragOperation? = nil, outcome: DropOutcome? = nil
  ) {
    self.pointer = pointer
    self.location = location
    self.index = index
    self.operation = operation
    self.outcome = outcome
  }
}

/// A rule as the engine sees it, whatever language it is written in.
public struct RuleDescription: Sendable, Codable {
  /// The handlers the rule has.
  public var handlers: Set<Handler>
  /// Types one dragged item must conform to for the rule's targets to take part; nil
  /// accepts every drag.
  public var accepts: [TypeIdentifier]?
  /// Where each handler is defined, for diagnostics about what it returned.
  public var definitions: [Handler: SourceLocation]

  /// A rule with these handlers, accepted types and handler definitions.
  public init(handlers: Set<Handler>, accepts: [TypeIdentifier]?, definitions: [Handler: SourceLocation] = [:]) {
    self.handlers = handlers
    self.accepts = accepts
    self.definitions = definitions
  }

  /// Whether the rule's targets take drops (see ``Handler/takesDrops(implementing:)``).
  public var takesDrops: Bool { Handler.takesDrops(implementing: handlers.contains) }
}

/// A place in a rule file.
public struct SourceLocation: Hashable, Sendable, Codable {
  /// The rule file, as it was named when loaded.
  public var file: String
  /// The 1-based line.
  public var line: Int

  /// A place in a rule file.
  public init(file: String, line: Int) {
    self.file = file
    self.line = line
  }
}

/// How the drag engine reaches rules, whatever they are written in.
///
/// The engine decides when each handler runs; an implementation turns a call into the
/// rule's language and back. What a rule reads of the board and of the drag, it reads
/// from the view each call is given (``RuleView/currentBoard``, ``RuleView/dragFacts``)
/// and reads again once ``RuleView/version`` moved: the engine tells the rules of no
/// change, only that a drag is over. Tests drive the engine with a Swift implementation.
public protocol RuleCalling: AnyObject {
  /// The rule for targets of this type (its own, else the fallback), or nil.
  func rule(forTargetType type: String) -> RuleID?
  /// What the engine needs to know of a rule: the handlers it has, the types it accepts,
  /// where its handlers are defined. Asked once per rule when rules or the board change.
  func describe(_ rule: RuleID) -> RuleDescription
  /// Runs `handler` of `rule` for the target at `position` of the engine's board; what
  /// the rule reads and stages, it does through `view`.
  func call(
    _ handler: Handler, of rule: RuleID, target: TargetID, position: Int, context: HandlerContext,
    in view: any RuleView
  ) -> HandlerResult
  /// What rule code printed since the last call, in order.
  func takePrintedLines() -> [String]
  /// The drag ended: what the rules were given for it (`info`) is void.
  func dragDidEnd()
}
