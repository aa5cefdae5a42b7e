/// The identifier of a drag item, unique on a board.
public typealias ItemID = String

/// One representation of an item: a type and its payload, like a registered type of an
/// `NSItemProvider`.
public struct Representation: Hashable, Sendable {
  public var type: TypeIdentifier
  public var payload: String

  public init(type: TypeIdentifier, payload: String) {
    self.type = type
    self.payload = payload
  }
}

/// An item that can be dragged: an id, an optional name and its representations,
/// best fidelity first.
public struct DragItem: Hashable, Sendable {
  public var id: ItemID
  public var name: String?
  public var representations: [Representation]

  public init(id: ItemID, name: String? = nil, representations: [Representation] = []) {
    self.id = id
    self.name = name
    self.representations = representations
  }

  /// The item's types in fidelity order.
  public var types: [TypeIdentifier] { representations.map(\.type) }

  /// Whether some representation conforms to one of `types`.
  public func conforms(toAnyOf types: [TypeIdentifier], in registry: TypeRegistry) -> Bool {
    representations.contains { registry.conforms($0.type, toAnyOf: types) }
  }

  /// The payload of the best representation conforming to `type`.
  public func payload(conformingTo type: TypeIdentifier, in registry: TypeRegistry) -> String? {
    representations.first { registry.conforms($0.type, to: type) }?.payload
  }
}
