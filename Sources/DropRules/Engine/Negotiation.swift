/// A change the negotiation made to a rule's proposal.
public struct Downgrade: Hashable, Sendable, CustomStringConvertible {
  public var from: DragOperation
  public var to: Proposal
  public var allowed: Set<DragOperation>

  /// `move -> copy (only copy allowed)`.
  public var description: String {
    let allowedText =
      allowed.isEmpty
      ? "no operation allowed" : "only \(allowed.map(\.rawValue).sorted().joined(separator: ", ")) allowed"
    return "\(from.rawValue) -> \(to.rawValue) (\(allowedText))"
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
  static func negotiate(
    _ proposal: Proposal, allowed: Set<DragOperation>
  ) -> (proposal: Proposal, downgrade: Downgrade?) {
    guard let operation = proposal.operation, !allowed.contains(operation) else { return (proposal, nil) }
    let result: Proposal = operation == .move && allowed.contains(.copy) ? .copy : .forbidden
    return (result, Downgrade(from: operation, to: result, allowed: allowed))
  }
}
