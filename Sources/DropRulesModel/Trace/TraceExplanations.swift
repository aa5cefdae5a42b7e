/// A target under the pointer that the hit-test passed over before the one it entered
/// (or before giving up), and why.
public struct SkippedTarget: Hashable, Sendable, CustomStringConvertible {
  /// The target passed over.
  public var target: TargetID
  /// Why it was passed over.
  public var reason: SkipReason

  /// A target passed over, and why.
  public init(target: TargetID, reason: SkipReason) {
    self.target = target
    self.reason = reason
  }

  /// The reason as the text trace shows it, as seen at step `step`.
  public func detail(atStep step: Int) -> String { reason.detail(atStep: step) }

  /// `label: no rule for its type 'text'`.
  public var description: String { "\(target): \(reason.detail(atStep: Int.max))" }
}

/// Why the hit-test passed over a target under the pointer.
public enum SkipReason: Hashable, Sendable {
  /// No loaded rule names the target's type, and there is no `*` fallback.
  case noRule(targetType: String)
  /// Its rule has source handlers only (`canDrag`, `dragOperations`, `dragEnded`): its
  /// targets take no drops.
  case sourceOnly(targetType: String)
  /// None of the dragged items conforms to any of the rule's `accepts` types.
  case notAccepted([TypeIdentifier])
  /// A target that takes part lies under another one that is drawn on top of it (a
  /// sibling declared later, or a deeper target that is not its descendant).
  case covered(by: TargetID)
  /// `validateDrop` said no (returned false, or raised) at step `step`.
  /// A refusal holds while the pointer stays over the target: it is asked again only
  /// once the pointer has left it.
  case validateDrop(step: Int, raised: Bool)
  /// It is, or lies inside, a closed container (``DropTarget/collapsed``) that no rule
  /// has spring-loaded in this drag.
  case closed(in: TargetID)

  /// The reason's name in the JSON trace. A `validateDrop` refusal of an earlier step is
  /// `refusedEarlier`.
  public func kind(atStep step: Int) -> String {
    switch self {
    case .noRule: "noRule"
    case .sourceOnly: "sourceOnly"
    case .notAccepted: "notAccepted"
    case .covered: "covered"
    case .closed: "closed"
    case .validateDrop(let refusedAt, _): refusedAt < step ? "refusedEarlier" : "validateDrop"
    }
  }

  /// How many accepted types a `notAccepted` reason names; it counts the rest. A rule
  /// may accept 20,000 types, and every step that passes over its target says why.
  public static let acceptsShown = 5

  /// The first ``acceptsShown`` of `types`, each cut as a name (``TextCap/name``).
  static func shownAccepts(_ types: [TypeIdentifier]) -> [String] {
    types.prefix(acceptsShown).map { $0.rawValue.capped(.name) }
  }

  /// One line a rule author can act on: `no rule for its type 'x'`, `accepts a, b; no
  /// dragged item conforms`, `validateDrop returned false`.
  public func detail(atStep step: Int) -> String {
    switch self {
    case .noRule(let type): "no rule for its type '\(type.capped(.name))'"
    case .sourceOnly(let type):
      "the rule for '\(type.capped(.name))' has only source handlers (canDrag, dragOperations, dragEnded), so it takes no drops"
    case .notAccepted(let types):
      "accepts " + Self.shownAccepts(types).joined(separator: ", ")
        + (types.count > Self.acceptsShown ? " and \(types.count - Self.acceptsShown) more" : "")
        + "; no dragged item conforms to any of them"
    case .covered(let top): "under \(top), which is drawn on top of it"
    case .closed(let container):
      "\(container) is closed; a dropUpdated answer with open = true over its row spring-loads it"
    case .validateDrop(let refusedAt, let raised):
      refusedAt < step
        ? "validateDrop \(raised ? "raised an error" : "returned false") at step \(refusedAt); it is asked again once the pointer leaves it"
        : "validateDrop " + (raised ? "raised an error" : "returned false")
    }
  }
}

/// Why a drag ended without performing its drop.
public enum OutcomeReason: Hashable, Sendable, CustomStringConvertible {
  /// No target under the pointer took part in the drag at the drop.
  case noTarget
  /// The proposal in force at the drop was `forbidden` or `cancel`.
  case proposal(Proposal, target: TargetID?)
  /// The target's rule has no `performDrop`, so no drop on it can succeed.
  case noPerformDrop(target: TargetID, targetType: String)
  /// `performDrop` returned something other than true (only true commits).
  case performDropReturned(target: TargetID, value: HandlerValue)
  /// `performDrop` raised; the error is in the trace.
  case performDropRaised(target: TargetID)
  /// The drop was a copy, and a change before it (a preview in `dropEntered` or
  /// `dropUpdated`) had taken a dragged item out of its source.
  case copyTookFromSource(target: TargetID, item: ItemID, source: TargetID)
  /// `performDrop` returned true, but the board refused one of its changes because it
  /// would have put a target inside itself (the rule caught the error).
  case containedItself(target: TargetID, item: ItemID, opened: TargetID, destination: TargetID)

  /// The reason's name in the JSON trace.
  public var kind: String {
    switch self {
    case .noTarget: "noTarget"
    case .proposal: "proposal"
    case .noPerformDrop: "noPerformDrop"
    case .performDropReturned: "performDropReturned"
    case .performDropRaised: "performDropRaised"
    case .copyTookFromSource: "copyTookFromSource"
    case .containedItself: "containedItself"
    }
  }

  /// The target the drop was meant for, if there was one.
  public var target: TargetID? {
    switch self {
    case .noTarget: nil
    case .proposal(_, let target): target
    case .noPerformDrop(let target, _), .performDropReturned(let target, _), .performDropRaised(let target),
      .copyTookFromSource(let target, _, _), .containedItself(let target, _, _, _):
      target
    }
  }

  /// Why the drop did nothing, as the text trace says it.
  public var description: String {
    switch self {
    case .noTarget: "no target under the pointer takes the drop"
    case .proposal(let proposal, let target):
      "the proposal was \(proposal.rawValue) at the drop" + (target.map { " (over \($0))" } ?? "")
    case .noPerformDrop(let target, let type): "the rule for '\(type)' (target \(target)) has no performDrop"
    case .performDropReturned(let target, .boolean(false)): "performDrop of \(target) returned false"
    case .performDropReturned(let target, let value):
      "performDrop of \(target) returned \(value.description); only true commits a drop"
    case .performDropRaised(let target): "performDrop of \(target) raised an error"
    case .copyTookFromSource(_, let item, let source):
      "the drop was a copy, but '\(item)' had left its source '\(source)' (moved by a handler before the drop); "
        + "a copy never takes from its source"
    case .containedItself(let target, let item, let opened, let destination):
      "performDrop of \(target) returned true, but moving '\(item.capped(.name))' into "
        + "'\(destination.capped(.name))' would have put '\(opened.capped(.name))' inside itself, so the board "
        + "refused it; nothing is dropped (check info.wouldContainItself before inserting)"
    }
  }
}
