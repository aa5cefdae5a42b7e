/// Keeps a Lua value (a function, an object) alive in the runtime's registry.
public final class LuaReference {
  let id: Int32
  private weak var runtime: LuaRuntime?

  init(id: Int32, runtime: LuaRuntime) {
    self.id = id
    self.runtime = runtime
  }

  deinit {
    runtime?.release(id)
  }
}

@available(*, unavailable) extension LuaReference: Sendable {}
