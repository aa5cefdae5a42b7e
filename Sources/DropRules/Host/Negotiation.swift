/// Reconciles a rule's proposal with the operations the drag allows.
enum Negotiation {
  /// `move` where only copy is allowed becomes `copy` (as Qt does); an operation not
  /// allowed at all becomes `forbidden`. Returns the result and a note when it changed.
  static func negotiate(
    _ proposal: DropProposal, allowed: Set<DropOperation>
  ) -> (proposal: DropProposal, downgrade: String?) {
    guard let operation = proposal.operation, !allowed.contains(operation) else { return (proposal, nil) }
    let allowedText =
      allowed.isEmpty
      ? "no operation allowed" : "only \(allowed.map(\.rawValue).sorted().joined(separator: ", ")) allowed"
    if operation == .move, allowed.contains(.copy) {
      return (.copy, "move -> copy (\(allowedText))")
    }
    return (.forbidden, "\(operation.rawValue) -> forbidden (\(allowedText))")
  }
}
