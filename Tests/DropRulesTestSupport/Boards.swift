import DropRulesModel

/// An item with one plain-text representation, named after its id.
public func textItem(_ id: String) -> DragItem {
  DragItem(id: id, name: id.capitalized, representations: [Representation(type: "public.plain-text", payload: id)])
}

/// Targets side by side, 100 x 100 each, starting at x = 0.
public func row(_ ids: [String], type: String = "box", items: [String: [String]] = [:]) -> [DropTarget] {
  ids.enumerated().map { offset, id in
    DropTarget(
      id: id, type: type, frame: Rect(x: Double(offset) * 100, y: 0, width: 100, height: 100),
      items: items[id] ?? [])
  }
}
