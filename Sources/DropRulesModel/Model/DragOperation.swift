/// What a drop does with the dragged items.
public enum DragOperation: String, Sendable, CaseIterable, Hashable {
  case copy
  case move

  /// `copy, move`: a set of operations in a stable order, for people.
  public static func names(_ operations: Set<DragOperation>) -> String {
    operations.isEmpty ? "none" : allCases.filter(operations.contains).map(\.rawValue).joined(separator: ", ")
  }
}

/// The answer of `dropUpdated`: what would happen if the user dropped now.
public enum Proposal: String, Sendable, CaseIterable, Hashable {
  case move
  case copy
  case forbidden
  case cancel

  /// The operation a drop with this proposal performs, if any.
  public var operation: DragOperation? {
    switch self {
    case .move: .move
    case .copy: .copy
    case .forbidden, .cancel: nil
    }
  }
}

/// The keyboard modifiers a drag can carry.
public enum Modifier: String, Sendable, CaseIterable, Hashable, Comparable {
  case option
  case command
  case shift
  case control

  /// Orders modifiers as they are listed: option, command, shift, control.
  public static func < (lhs: Modifier, rhs: Modifier) -> Bool {
    allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
  }
}

/// How a drag ended.
public enum DropOutcome: String, Sendable, CaseIterable, Hashable {
  /// `performDrop` returned true; the staged changes were committed.
  case performed
  /// Nothing was performed (no target, forbidden, cancel, or the user cancelled).
  case cancelled
  /// `performDrop` returned false or raised; the staged changes were rolled back.
  case failed
  /// No dragged item could be dragged (`canDrag` refused them all): the drag never began.
  case refused
}
