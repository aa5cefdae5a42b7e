import Foundation

/// Drives drags over a board: hit-testing, enter and exit, updates, negotiation, drop
/// and cancel, and the staging of every change rules make, calling the rules through
/// ``RuleCalling``. It knows nothing of Lua.
///
/// Changes made during a drag go into the board in place; the engine keeps their undo
/// records, so a commit drops the records and a rollback replays them.
///
/// An engine is confined to one thread (it is not `Sendable`) and its accesses never
/// overlap, so the state every pointer step touches skips the runtime's exclusivity
/// checks (`@exclusivity(unchecked)`): they cost more than the rest of a step's Swift.
public final class DragEngine {
  /// The rules the engine calls: Lua rule files in a ``RuleHost``, Swift code in tests.
  public let rules: any RuleCalling
  /// The type conformance graph the rules and the drag use.
  public private(set) var types: TypeRegistry
  /// The board as the current drag sees it: committed plus staged changes. Between
  /// drags, the committed board. Every change to it, however made, moves ``version``,
  /// as does every change to ``dragFacts``.
  @exclusivity(unchecked) public internal(set) var currentBoard: Board {
    didSet {
      version.advance()
      // Only a change moves the tree or the frames: the hit-tester follows here, so
      // pointer steps, which change nothing, never check.
      if currentBoard.treeGeneration.value != hitTester.treeGeneration
        || currentBoard.frameGeneration.value != hitTester.frameGeneration
      {
        syncHitTester()
      }
    }
  }
  /// The version of what rules read, ``currentBoard`` and ``dragFacts``: what they keep
  /// of either is good while it stays.
  public let version = ReadVersion()
  @exclusivity(unchecked) var hitTester: HitTester
  /// The rule of the target at each board position.
  @exclusivity(unchecked) private(set) var ruleOfTarget: [RuleID?] = []
  /// What the engine knows of each rule a target uses.
  private(set) var ruleDescriptions: [RuleID: RuleDescription] = [:]
  @exclusivity(unchecked) var drag: DragState?
  /// Whether the pointer is over another app (`drag.outside` is set), as a plain flag:
  /// reading a field through the optional drag state copies the state, and every
  /// pointer step asks.
  @exclusivity(unchecked) var isOutside = false
  /// The drag's allowed operations as bits (``DragOperation/bit``), so that the pointer
  /// step checks a proposal without hashing.
  @exclusivity(unchecked) var allowedBits: UInt8 = 0
  @exclusivity(unchecked) var recorder = TraceRecorder()
  /// What handlers of the current drag set with `target:setForDrag`: read over the
  /// targets' data, never committed; empty between drags. Kept here, not in the drag
  /// state, so that every handler call reads its count without copying that state.
  @exclusivity(unchecked) var dragOnly = DragOnlyData()
  /// Undo records of every change staged in the current transaction (the drag, or one
  /// `dragEnded`), in order; empty between drags. Here for the same reason.
  @exclusivity(unchecked) var undoLog = UndoLog()
  /// What the engine keeps to say the drag (AnnouncementState.swift).
  @exclusivity(unchecked) var announcements = AnnouncementState()
  /// The drag's clock and the current target's hover time (HoverClock.swift).
  @exclusivity(unchecked) var hoverClock = HoverClock()
  /// The target type of the current target when its rule has no `performDrop`: its
  /// move or copy proposals become `forbidden`, since no drop there can be performed.
  @exclusivity(unchecked) var currentLacksPerformDrop: String?
  /// Closed containers a rule spring-loaded in the current drag (SpringLoading.swift).
  var springLoading = SpringLoading()
  /// The board positions of the targets the dragged items stand for, so that a handler
  /// call knows at once, by an empty list, that no drop can contain itself.
  @exclusivity(unchecked) var draggedOpeners: [Int] = []
  private var copyCounter = 0

  /// Every diagnostic since the engine was made, but those past a drag's
  /// ``maximumDiagnosticsPerDrag``.
  public internal(set) var diagnostics: [Diagnostic] = []
  /// How many diagnostics were left out of ``diagnostics`` and the trace since the
  /// engine was made, past each drag's ``maximumDiagnosticsPerDrag``.
  public internal(set) var diagnosticsDropped = 0
  /// Diagnostics kept in the current drag.
  var diagnosticsThisDrag = 0
  /// Who watches handler calls from outside: `droprules bench`'s timings, rule tests'
  /// printed lines.
  @exclusivity(unchecked) public var observers = CallObservers()

  /// An engine that calls `rules`, with a type registry and a board to start from.
  public init(rules: any RuleCalling, types: TypeRegistry = TypeRegistry(), board: Board = Board()) {
    self.rules = rules
    self.types = types
    currentBoard = board
    hitTester = HitTester(board: board)
    rulesDidChange()
  }

  /// The committed board: during a drag, the board without the drag's staged changes.
  public var board: Board {
    guard drag != nil, !undoLog.isEmpty else { return currentBoard }
    var committed = currentBoard
    committed.undo(undoLog.records)
    return committed
  }

  /// Whether a drag is in progress.
  public var isDragging: Bool { drag != nil }

  /// The steps of the current drag, or of the last one once it ended.
  public var trace: [TraceStep] {
    var steps = recorder.steps
    for index in steps.indices { announce(&steps[index]) }
    return steps
  }

  /// Gives a step its announcement, naming items and targets as the board does now
  /// (in place: a step is large, and every answer of the protocol is one).
  func announce(_ step: inout TraceStep) {
    if step.announcement == nil {
      step.announcement = announcements.sentenceMemo.sentence(of: step, at: version.value) {
        let text = step.announce(on: currentBoard, itemNames: announcements.itemNames)
        return text.isEmpty ? nil : text
      }
    }
    if case .begin(let items) = step.action, step.preview == nil {
      step.preview = DragPreview.standard(for: items.filter { !step.refused.contains($0) }) { id in
        announcements.itemNames[id] ?? currentBoard.item(id)?.name ?? id
      }
    }
  }

  /// How many times the board was replaced: positions on it stay valid until then.
  public private(set) var boardsReplaced = 0
  /// How many transactions committed a change to the board (a performed drop, a
  /// source's `dragEnded`): a caller that put a board back knows, by this count alone,
  /// whether it must again, without comparing boards (`droprules bench`).
  public internal(set) var commits = 0

  /// Replaces the board between drags.
  public func replaceBoard(_ board: Board) throws(DragError) {
    guard drag == nil else { throw .dragInProgress }
    // First, so that the board's observer finds the hit-tester already built for it.
    hitTester = HitTester(board: board)
    currentBoard = board
    boardsReplaced += 1
    rulesDidChange()
  }

  /// Declares a type between drags (scenarios and loading rule files do this).
  public func declareType(_ type: TypeIdentifier, conformsTo parents: [TypeIdentifier]) throws(DragError) {
    guard drag == nil else { throw .dragInProgress }
    types.declare(type, conformsTo: parents)
  }

  /// Looks the rule of every target up again, after rules were loaded.
  public func rulesDidChange() {
    ruleOfTarget = currentBoard.targets.map { rules.rule(forTargetType: $0.type) }
    ruleDescriptions = [:]
    for rule in Set(ruleOfTarget.compactMap { $0 }) { ruleDescriptions[rule] = rules.describe(rule) }
    announcements.anyRuleAnnounces = ruleDescriptions.values.contains { $0.handlers.contains(.announce) }
  }

  // MARK: For rule implementations

  /// The ids of the items being dragged, in drag order; empty between drags.
  public var draggedItems: [ItemID] { drag?.itemIDs ?? [] }

  /// Whether `item` is one of the current drag's items.
  public func isDragged(_ item: ItemID) -> Bool { drag?.itemSet.contains(item) ?? false }

  /// What rules read of the current drag (`info`), nil between drags. It changes only
  /// where ``version`` moves.
  public var dragFacts: DragFacts? {
    guard let drag else { return nil }
    return DragFacts(
      items: drag.itemIDs, modifiers: drag.request.modifiers, allowedOperations: drag.request.allowedOperations,
      source: drag.sources.first, takenOutside: drag.takenOutside)
  }

  /// One key of a target's data on the board as the drag staged it (``currentBoard``),
  /// without the drag's own keys (``setForDrag(_:to:on:)``), which are kept beside the
  /// board: the value that `target:set` replaces. Nil for a missing key or target. Read
  /// in place (a copy of the board or the target would retain all it holds, on every
  /// set).
  public func boardDataValue(_ key: String, of target: TargetID) -> JSONValue? {
    currentBoard.dataValue(key, of: target)
  }

  /// Applies a rule's change to the board, recording how to undo it; returns the
  /// targets it touched.
  public func stage(_ change: BoardChange) throws(StageError) -> [TargetID] {
    guard drag != nil else { throw .noDrag }
    guard drag?.isReadOnly == false else { throw .readOnly }
    // Under a copy, what a preview took before does not make this change the culprit.
    let takenBefore = drag?.protectsSources == true ? itemsTakenFromTheirSources() : []
    let undo: [Board.Undo]
    do {
      undo = try currentBoard.apply(change)
    } catch {
      // Remembered for the drop: a rule that catches this with pcall and returns true
      // moved nothing, and must not be told, nor tell the user, that it dropped.
      if case .wouldContainItself(let item, let opened, let destination) = error,
        drag?.containmentRefusal == nil
      {
        drag?.containmentRefusal = (item, opened, destination)
      }
      throw .board(error)
    }
    let touched = currentBoard.targets(touchedBy: undo)
    if let only = drag?.onlyWritableTarget, let other = touched.first(where: { $0 != only }) {
      currentBoard.undo(undo)
      throw .outsideSource(source: only, touched: other)
    }
    if drag?.protectsSources == true,
      let taken = itemsTakenFromTheirSources().first(where: { item in !takenBefore.contains { $0.item == item.item } })
    {
      currentBoard.undo(undo)
      throw .copyTakesFromSource(item: taken.item, source: taken.source)
    }
    undoLog.append(undo)
    dragOnly.forgetKeys(changedBy: undo)
    return touched
  }

  /// The dragged board items that are no longer in the targets they were dragged from.
  func itemsTakenFromTheirSources() -> [(item: ItemID, source: TargetID)] {
    guard let drag else { return [] }
    let board = currentBoard
    return drag.itemSources.filter { board.place(of: $0.item)?.container != $0.source }
  }

  /// A fresh id for a copy of `id`, unused on the board.
  public func freshCopyID(of id: ItemID) -> ItemID {
    repeat { copyCounter += 1 } while currentBoard.item("\(id)-copy\(copyCounter)") != nil
    return "\(id)-copy\(copyCounter)"
  }

  // MARK: Diagnostics and trace

  /// Records a diagnostic on the current step; past the drag's
  /// ``maximumDiagnosticsPerDrag``, only counts it.
  func report(_ diagnostic: Diagnostic) {
    // A rule that raises on every step of a long drag would fill the trace (60,000 steps
    // raising 8 KiB held 638 MB): a drag keeps its first errors and counts the rest.
    guard diagnosticsThisDrag < Self.maximumDiagnosticsPerDrag else {
      diagnosticsDropped += 1
      recorder.record(.diagnosticOmitted)
      return
    }
    diagnosticsThisDrag += 1
    var diagnostic = diagnostic
    diagnostic.step = drag?.stepNumber
    diagnostic.message = TextCap.message.cut(diagnostic.message)
    // A host keeps every diagnostic, but a rule that fails on every step of a long drag
    // must not fill memory with them: past the first thousand, each keeps the start of
    // its message and no traceback, about as much as the step it belongs to.
    if diagnostics.count >= Self.diagnosticsKeptWhole {
      if diagnostic.message.utf8.count > Self.shortenedMessageBytes {
        diagnostic.message =
          String(decoding: diagnostic.message.utf8.prefix(Self.shortenedMessageBytes), as: UTF8.self)
          + " [cut: the host keeps \(Self.diagnosticsKeptWhole) diagnostics whole]"
      }
      diagnostic.traceback = ""
    }
    diagnostics.append(diagnostic)
    recorder.record(.diagnostic(diagnostic))
  }

  /// How many rule errors one drag keeps, in the trace and in ``diagnostics``; the rest
  /// are counted (``TraceStep/diagnosticsOmitted``, ``diagnosticsDropped``).
  public static let maximumDiagnosticsPerDrag = 100

  /// How many diagnostics a host keeps whole, with their tracebacks.
  static let diagnosticsKeptWhole = 1_000
  /// Bytes of message kept of each later one.
  static let shortenedMessageBytes = 256

  func beginStep(_ step: DragStep) { beginStep(.step(step)) }

  func beginStep(_ action: StepAction) {
    drag?.stepNumber += 1
    recorder.record(.step(action))
  }
}

@available(*, unavailable) extension DragEngine: Sendable {}

/// How long one handler call took (`droprules bench`).
public struct HandlerTiming: Hashable, Sendable {
  /// The handler called.
  public var handler: Handler
  /// The call's wall time, in nanoseconds, the clock's own cost included.
  public var nanoseconds: UInt64

  /// A call of `handler` that took `nanoseconds`.
  public init(handler: Handler, nanoseconds: UInt64) {
    self.handler = handler
    self.nanoseconds = nanoseconds
  }
}
