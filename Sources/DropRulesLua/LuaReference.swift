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
///
/// Inlinable, because the rule binding compares slots on every pointer step and a call
/// into another module for that would cost more than the comparison.
@frozen package struct LuaSlot: Equatable {
  package let id: Int32
  /// No value: Lua's registry never gives out slot 0.
  @inlinable package static var none: LuaSlot { LuaSlot(id: 0) }

  @inlinable init(id: Int32) { self.id = id }

  @inlinable package static func == (lhs: LuaSlot, rhs: LuaSlot) -> Bool { lhs.id == rhs.id }
}
