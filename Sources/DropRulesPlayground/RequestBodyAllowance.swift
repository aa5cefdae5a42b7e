import Foundation

/// The bytes of request bodies the playground holds at once, across all connections.
///
/// One request may hold at most ``ProtocolDispatcher/maximumRequestBytes``; without a
/// shared allowance, many connections sending at once could each hold that much. A body
/// takes its bytes as they arrive and gives them back once it is answered; one that
/// finds the allowance spent is read to its end, kept nowhere, and answered 503.
package final class RequestBodyAllowance: @unchecked Sendable {
  /// The most bytes held at once.
  package let capacity: Int
  // A lock, not an actor: each piece of a body takes its bytes without a suspension.
  private let lock = NSLock()
  private var held = 0

  package init(capacity: Int) {
    self.capacity = capacity
  }

  /// Bytes held now.
  package var bytesHeld: Int { lock.withLock { held } }

  /// Takes `count` bytes; false, taking nothing, when they would pass ``capacity``.
  package func take(_ count: Int) -> Bool {
    lock.withLock {
      guard count <= capacity - held else { return false }
      held += count
      return true
    }
  }

  /// Gives back bytes taken earlier.
  package func giveBack(_ count: Int) {
    lock.withLock { held = max(0, held - count) }
  }
}
