/// The identifier of a drag item, unique on a board.
public typealias ItemID = String

/// One representation of an item: a type and its payload, like a registered type of an
/// `NSItemProvider`.
public struct Representation: Hashable, Sendable, Codable {
  /// What the payload is: `public.plain-text`, `public.file-url`.
  public var type: TypeIdentifier
  /// The representation's content as text (a URL, JSON, plain text).
  public var payload: String

  /// A representation of `type` holding `payload`.
  public init(type: TypeIdentifier, payload: String) {
    self.type = type
    self.payload = payload
  }
}

/// An item that can be dragged: an id, an optional name and its representations,
/// best fidelity first.
public struct DragItem: Hashable, Sendable, Codable {
  /// The item's id, unique on its board.
  public var id: ItemID
  /// What a person calls the item (a file name, an event title); optional.
  public var name: String?
  /// The item's representations, best fidelity first.
  public var representations: [Representation]
  /// The item's own data, a JSON object (`item.data`): metadata a rule reads and
  /// changes with `item:set`, rather than JSON text inside a representation.
  public var data: [String: JSONValue]
  /// The target this item stands for, when it is a container's row (a folder in a file
  /// list, a mailbox in a sidebar, a column in a board's strip of columns): wherever the
  /// item sits, that target is nested in the item's container, so moving the item moves
  /// the target and its subtree (`item.opens`).
  public var opens: TargetID?

  /// An item with an id, an optional name, its representations (best first), data and
  /// the target it stands for.
  public init(
    id: ItemID, name: String? = nil, representations: [Representation] = [], data: [String: JSONValue] = [:],
    opens: TargetID? = nil
  ) {
    self.id = id
    self.name = name
    self.representations = representations
    self.data = data
    self.opens = opens
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
