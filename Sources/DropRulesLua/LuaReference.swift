/// Keeps a Lua value (a function, an object) alive in the runtime's registry.
public final class LuaReference {
  let id: Int32
  private weak var runtime: LuaRuntime?

  init(id: Int32, runtime: LuaRuntime) {
    self.id = id
    self.runtime = runtime
  }

  /// The registry slot, for hot paths that must not retain: valid while this reference lives.
  package var slot: LuaSlot { LuaSlot(id: id) }

  deinit {
    runtime?.release(id)
  }
}

@available(*, unavailable) extension LuaReference: Sendable {}

/// A registry slot of a value that a ``LuaReference`` keeps alive; a plain integer, so
/// passing it costs no reference counting.
package struct LuaSlot: Equatable {
  package fileprivate(set) var id: Int32
  package static let none = LuaSlot(id: 0)

  init(id: Int32) { self.id = id }
}
