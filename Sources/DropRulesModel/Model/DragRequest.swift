/// A dragged item: one already on the board (a local drag) or one from another app.
public enum DraggedItem: Hashable, Sendable {
  case board(ItemID)
  case external(DragItem)

  public var id: ItemID {
    switch self {
    case .board(let id): id
    case .external(let item): item.id
    }
  }
}

/// What the user drags and how: the items, the allowed operations and the modifiers.
public struct DragRequest: Hashable, Sendable {
  public var items: [DraggedItem]
  public var allowedOperations: Set<DragOperation>
  public var modifiers: Set<Modifier>

  /// - Parameter allowedOperations: nil gives the default: copy and move for a local
  ///   drag, copy only when every item comes from another app.
  public init(items: [DraggedItem], allowedOperations: Set<DragOperation>? = nil, modifiers: Set<Modifier> = []) {
    self.items = items
    self.modifiers = modifiers
    let isExternal = !items.isEmpty && items.allSatisfy { if case .external = $0 { true } else { false } }
    self.allowedOperations = allowedOperations ?? (isExternal ? [.copy] : [.copy, .move])
  }
}
