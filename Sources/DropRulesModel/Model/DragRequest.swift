/// A dragged item: one already on the board (a local drag) or one from another app.
public enum DraggedItem: Hashable, Sendable {
  case board(ItemID)
  case external(DragItem)

  /// The item's id, on the board or from the other app.
  public var id: ItemID {
    switch self {
    case .board(let id): id
    case .external(let item): item.id
    }
  }
}

/// What the user drags and how: the items, the allowed operations and the modifiers.
public struct DragRequest: Hashable, Sendable {
  /// The dragged items, in drag order.
  public var items: [DraggedItem]
  /// The operations the drag allows, before any source limits them.
  public var allowedOperations: Set<DragOperation>
  /// The modifier keys held when the drag begins.
  public var modifiers: Set<Modifier>

  /// A request to drag `items`.
  ///
  /// - Parameters:
  ///   - items: what is dragged, in drag order.
  ///   - allowedOperations: nil gives the default: copy and move for a local drag, copy
  ///     only when every item comes from another app.
  ///   - modifiers: the modifier keys held when the drag begins.
  public init(items: [DraggedItem], allowedOperations: Set<DragOperation>? = nil, modifiers: Set<Modifier> = []) {
    self.items = items
    self.modifiers = modifiers
    let isExternal = !items.isEmpty && items.allSatisfy { if case .external = $0 { true } else { false } }
    self.allowedOperations = allowedOperations ?? (isExternal ? [.copy] : [.copy, .move])
  }
}
