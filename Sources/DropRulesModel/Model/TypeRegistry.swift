import Foundation

/// The conformance graph of type identifiers: built-in system types plus the custom
/// types that rule files and scenarios declare.
///
/// Conformance is reflexive and transitive; a type nobody declared conforms only to
/// itself. Questions are answered from each type's ancestors, walked once per
/// declaration and kept: a walk per question made an 8,000-type chain asked against a
/// 40,000-type `accepts` list hang the host for minutes. A walk is as long as the graph
/// is large, so whoever lets others declare types bounds how many they may (the rule
/// binding bounds what each rule file's declarations name): an answer is never cut
/// short, so it is never wrong.
public struct TypeRegistry: Sendable {
  private var parents: [TypeIdentifier: Set<TypeIdentifier>]
  /// The ancestors walked so far; a declaration starts a new memo, so a copy of the
  /// registry made before it keeps its own answers.
  private var memo = AncestorMemo()
  /// How many declarations the registry took: unchanged, so is the graph.
  package private(set) var declarations = 0

  /// The most ancestors kept for all types together; past it the memo starts again.
  static let maximumMemoEntries = 1_000_000

  /// A registry of the built-in types only.
  public init() {
    parents = BuiltInTypes.parents.mapValues(Set.init)
  }

  /// Declares `type` (or adds parents to it). Declaring twice merges the parents.
  public mutating func declare(_ type: TypeIdentifier, conformsTo newParents: [TypeIdentifier] = []) {
    parents[type, default: []].formUnion(newParents.filter { $0 != type })
    memo = AncestorMemo()
    declarations += 1
  }

  /// Every known type's direct parents, by name: what a copy of the registry is made from.
  var declaredParents: [String: [TypeIdentifier]] {
    Dictionary(uniqueKeysWithValues: parents.map { ($0.key.rawValue, $0.value.sorted()) })
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
    guard parents[type]?.isEmpty == false else { return false }
    return ancestors(of: type).contains(other)
  }

  /// Whether `type` conforms to at least one of `others`.
  public func conforms(_ type: TypeIdentifier, toAnyOf others: [TypeIdentifier]) -> Bool {
    if others.contains(type) { return true }
    guard parents[type]?.isEmpty == false else { return false }
    let ancestors = ancestors(of: type)
    return others.contains { ancestors.contains($0) }
  }

  /// `type`'s ancestors, itself left out: walked once per declaration, breadth-first.
  func ancestors(of type: TypeIdentifier) -> Set<TypeIdentifier> {
    if let known = memo.ancestors(of: type) { return known }
    var found: Set<TypeIdentifier> = []
    var frontier = Array(parents[type] ?? [])
    var next: [TypeIdentifier] = []
    while !frontier.isEmpty {
      for parent in frontier where parent != type && found.insert(parent).inserted {
        next.append(contentsOf: parents[parent] ?? [])
      }
      swap(&frontier, &next)
      next.removeAll(keepingCapacity: true)
    }
    memo.keep(found, for: type)
    return found
  }
}

/// Ancestors already walked, shared by copies of one registry (questions come from the
/// engine and from every rule file's `droprules.conforms`), behind a lock: a registry is
/// `Sendable`.
private final class AncestorMemo: @unchecked Sendable {
  private let lock = NSLock()
  private var ancestors: [TypeIdentifier: Set<TypeIdentifier>] = [:]
  private var entries = 0

  func ancestors(of type: TypeIdentifier) -> Set<TypeIdentifier>? {
    lock.withLock { ancestors[type] }
  }

  func keep(_ found: Set<TypeIdentifier>, for type: TypeIdentifier) {
    lock.withLock {
      // Bounded as a whole too: a rule may ask about every one of 8,000 declared types.
      if entries + found.count > TypeRegistry.maximumMemoEntries {
        ancestors.removeAll()
        entries = 0
      }
      ancestors[type] = found
      entries += found.count + 1
    }
  }
}
