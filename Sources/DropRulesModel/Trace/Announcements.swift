/// What an `announce` handler is asked to say better than the built-in sentence.
public enum AnnouncementEvent: String, Sendable, CaseIterable {
  /// The drag began: its items were picked up (asked of the first source's rule).
  case lifted
  /// The pointer entered a target.
  case entered
  /// The proposal or the position over the current target changed.
  case proposal
  /// The pointer left a target for no target.
  case exited
  /// The drop was performed (asked of the target that took it).
  case dropped
  /// The drag was cancelled, or dropped where the proposal was forbidden or cancel.
  case cancelled
  /// The drop was refused: `performDrop` did not commit, or the host refused its change.
  case refused
}

/// What each step says to a person who cannot see the drag: the built-in announcements,
/// in plain English, as dnd-kit's screen-reader announcements and Pragmatic drag and
/// drop's live-region guidance do. The playground speaks them through an `aria-live`
/// region; the JSON trace, the protocol and `drag.lastStep` carry them.
///
/// They are made when a trace is read, never on the pointer step itself, so a drag costs
/// nothing for them. An item is named by its name, else its id; a target by the `name`
/// (or `title`) in its data, else its id.
extension TraceStep {
  /// The step's announcement, naming items and targets as `board` does; `itemNames`
  /// first, the names the dragged items had when the drag began (one dropped into
  /// another app has left the board since).
  public func announce(on board: Board, itemNames: [ItemID: String] = [:]) -> String {
    func itemName(_ id: ItemID) -> String { Self.itemName(id, on: board, itemNames: itemNames) }
    func targetName(_ id: TargetID) -> String { Self.targetName(id, on: board) }
    switch action {
    case .begin(let items):
      let lifted = items.filter { !refused.contains($0) }
      guard !lifted.isEmpty else { return Self.list(refused.map(itemName)) + " cannot be dragged." }
      var text = "Picked up " + Self.list(lifted.map(itemName)) + "."
      if !refused.isEmpty { text += " " + Self.list(refused.map(itemName)) + " stays where it is." }
      return text
    case .step(.drop), .step(.cancel):
      switch outcome {
      case .performed:
        if let destination = calls.last(where: { $0.handler == .performDrop })?.target {
          return "Dropped into \(targetName(destination))."
        }
        return "Dropped into another app."
      case .failed: return "Not dropped" + (outcomeReason?.target.map { ": \(targetName($0)) did not take it." } ?? ".")
      case .refused: return "Nothing could be dragged."
      case .cancelled, nil:
        if case .step(.drop) = action { return "Not dropped here; everything is back where it was." }
        return "Drag cancelled; everything is back where it was."
      }
    case .step: return PointerSentence(of: self).text(on: board, itemNames: itemNames)
    }
  }

  /// `Standup`, `Standup and Review`, `Standup, Review and Lunch`, `Standup, Review,
  /// Lunch and 97 more`: a drag of many items says how many, not every name.
  fileprivate static func list(_ names: [String]) -> String {
    if names.count > 4 { return names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more" }
    guard names.count > 1, let last = names.last else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + last
  }

  /// A name as announcements say it: at most 60 Unicode scalars (``TextCap/name``). A
  /// rule may store a name of megabytes in a target's data, and every step over that
  /// target names it.
  fileprivate static func short(_ name: String) -> String { TextCap.name.cut(name) }

  fileprivate static func itemName(_ id: ItemID, on board: Board, itemNames: [ItemID: String]) -> String {
    short(itemNames[id] ?? board.item(id)?.name ?? id)
  }

  fileprivate static func targetName(_ id: TargetID, on board: Board) -> String {
    let data = board.target(id)?.data
    if case .string(let name) = data?["name"] ?? data?["title"] { return short(name) }
    return short(id)
  }
}

/// Everything the sentence of a pointer, modifier or wait step is made from, besides the
/// board and the drag's item names, and nothing else of the step: so that
/// ``SentenceMemo`` can tell, by comparing two of these, that a sentence would come out
/// the same, and a sentence cannot read a field that the comparison misses.
struct PointerSentence: Equatable {
  var proposal: Proposal?
  var target: TargetID?
  var over: ItemID?
  var edge: ItemEdge?
  var index: Int?
  var offBoard: Bool
  var springLoaded: [TargetID]

  init(of step: TraceStep) {
    proposal = step.proposal
    target = step.target
    over = step.over
    edge = step.edge
    index = step.index
    offBoard = step.pointer == nil
    springLoaded = step.springLoaded
  }

  /// The sentence, naming items and targets as `board` does.
  func text(on board: Board, itemNames: [ItemID: String]) -> String {
    guard let proposal else { return "" }
    let opened =
      springLoaded.isEmpty
      ? "" : " Opened " + TraceStep.list(springLoaded.map { TraceStep.targetName($0, on: board) }) + "."
    guard let target else {
      if offBoard, proposal != .cancel { return "Over another app: \(proposal.rawValue)." }
      return "Over no drop target."
    }
    // Appended into one string with room for it: a sentence on every step.
    var text = "Over "
    text.reserveCapacity(80)
    text += TraceStep.targetName(target, on: board)
    text += ": "
    text += proposal.rawValue
    // Over the middle of a container's row, a drop goes into that container.
    if let row = over, edge == .center, board.item(row)?.opens != nil, proposal.operation != nil {
      text += " into "
      text += TraceStep.itemName(row, on: board, itemNames: itemNames)
    } else if let index, proposal.operation != nil {
      text += ", position "
      text += String(index)
    }
    text += "."
    text += opened
    return text
  }
}
