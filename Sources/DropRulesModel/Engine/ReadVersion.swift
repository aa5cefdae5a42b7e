/// A number that moves on every change to what rules read of a drag engine: its board (a
/// staged change, an undo, a rollback, a commit's pruning, a new board) and its drag (a
/// drag begun, modifiers, allowed operations, items taken by another app). Whatever a
/// rule binding keeps of either (objects' fields) belongs to one version and is read
/// again once it moved, so nothing has to be told what changed.
///
/// A class, so a binding can hold the engine's counter without holding the engine; its
/// value lives at a fixed address, so a hot path can read it without reference counting.
public final class ReadVersion {
  /// Where the value lives, for as long as this object does.
  public let address: UnsafePointer<Int>
  private let storage: UnsafeMutablePointer<Int>

  init() {
    storage = .allocate(capacity: 1)
    storage.initialize(to: 0)
    address = UnsafePointer(storage)
  }

  deinit { storage.deallocate() }

  /// The current version; only the engine advances it.
  public var value: Int { storage.pointee }

  func advance() { storage.pointee &+= 1 }
}

@available(*, unavailable) extension ReadVersion: Sendable {}
