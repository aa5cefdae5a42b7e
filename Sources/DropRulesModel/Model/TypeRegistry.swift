/// The conformance graph of type identifiers: built-in system types plus the custom
/// types that rule files and scenarios declare.
///
/// Conformance is reflexive and transitive; a type nobody declared conforms only to
/// itself.
public struct TypeRegistry: Sendable {
  private var parents: [TypeIdentifier: Set<TypeIdentifier>]

  /// A registry of the built-in types only.
  public init() {
    parents = BuiltInTypes.parents.mapValues(Set.init)
  }

  /// Declares `type` (or adds parents to it). Declaring twice merges the parents.
  public mutating func declare(_ type: TypeIdentifier, conformsTo newParents: [TypeIdentifier] = []) {
    parents[type, default: []].formUnion(newParents.filter { $0 != type })
  }

  /// The types `type` was declared to conform to directly, or nil when it is unknown.
  package func directParents(of type: TypeIdentifier) -> Set<TypeIdentifier>? { parents[type] }

  /// Whether `type` is built in or was declared.
  public func isKnown(_ type: TypeIdentifier) -> Bool { parents[type] != nil }

  /// Whether `type` is one of the platform's own (`public.image`, `public.png`...):
  /// what it conforms to is the same for every rule file.
  package static func isBuiltIn(_ type: TypeIdentifier) -> Bool { BuiltInTypes.parents[type] != nil }

  /// Whether `type` conforms to `other`, directly or through its ancestors.
  public func conforms(_ type: TypeIdentifier, to other: TypeIdentifier) -> Bool {
    if type == other { return true }
    var visited: Set<TypeIdentifier> = [type]
    var pending = Array(parents[type] ?? [])
    while let next = pending.popLast() {
      if next == other { return true }
      if visited.insert(next).inserted { pending.append(contentsOf: parents[next] ?? []) }
    }
    return false
  }

  /// Whether `type` conforms to at least one of `others`.
  public func conforms(_ type: TypeIdentifier, toAnyOf others: [TypeIdentifier]) -> Bool {
    others.contains { conforms(type, to: $0) }
  }
}
