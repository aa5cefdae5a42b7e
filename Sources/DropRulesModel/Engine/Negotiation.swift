/// A change the negotiation made to a rule's proposal.
public struct Downgrade: Hashable, Sendable, CustomStringConvertible {
  /// The operation the rule proposed.
  public var from: DragOperation
  /// What the negotiation made of it: `copy` or `forbidden`.
  public var to: Proposal
  /// The operations the drag allowed at the time.
  public var allowed: Set<DragOperation>
  /// The limits that left `from` out: the drag's own `allowedOperations` (a limit
  /// without a source) and the `dragOperations` answers of sources. Empty when not known.
  public var limitedBy: [OperationLimit]
  /// The target type whose rule has no `performDrop`, when that, not the allowed
  /// operations, made the proposal `forbidden`: its drop could not be performed.
  public var noPerformDrop: String?

  /// A downgrade from the rule's operation to the negotiated proposal.
  public init(
    from: DragOperation, to: Proposal, allowed: Set<DragOperation>, limitedBy: [OperationLimit] = [],
    noPerformDrop: String? = nil
  ) {
    self.from = from
    self.to = to
    self.allowed = allowed
    self.limitedBy = limitedBy
    self.noPerformDrop = noPerformDrop
  }

  /// `move -> copy (only copy allowed: source shelf allows copy (dragOperations))`.
  public var description: String {
    if let type = noPerformDrop {
      return
        "\(from.rawValue) -> \(to.rawValue) (the rule for '\(type)' has no performDrop, so no drop here can be performed)"
    }
    var text =
      allowed.isEmpty
      ? "no operation allowed" : "only \(allowed.map(\.rawValue).sorted().joined(separator: ", ")) allowed"
    if !limitedBy.isEmpty { text += ": " + limitedBy.map(\.description).joined(separator: "; ") }
    return "\(from.rawValue) -> \(to.rawValue) (\(text))"
  }
}

extension DragOperation {
  /// The operation's bit in a mask of operations.
  var bit: UInt8 { self == .copy ? 1 : 2 }

  static func bits(_ operations: Set<DragOperation>) -> UInt8 {
    operations.reduce(0) { $0 | $1.bit }
  }
}

/// Reconciles a rule's proposal with the operations the drag allows.
enum Negotiation {
  /// `move` where only copy is allowed becomes `copy` (as Qt does); an operation not
  /// allowed at all becomes `forbidden`.
  ///
  /// - Parameters:
  ///   - proposal: what the rule proposed.
  ///   - allowed: the operations the drag allows now.
  ///   - limits: where the allowed operations came from; the downgrade names those that
  ///     left the proposed operation out.
  /// - Returns: the proposal in force, and the downgrade that made it, if any.
  static func negotiate(
    _ proposal: Proposal, allowed: Set<DragOperation>, limits: [OperationLimit] = []
  ) -> (proposal: Proposal, downgrade: Downgrade?) {
    guard let operation = proposal.operation, !allowed.contains(operation) else { return (proposal, nil) }
    let result: Proposal = operation == .move && allowed.contains(.copy) ? .copy : .forbidden
    let limitedBy = limits.filter { !$0.operations.contains(operation) }
    return (result, Downgrade(from: operation, to: result, allowed: allowed, limitedBy: limitedBy))
  }
}
