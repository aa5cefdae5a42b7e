extension LuaValue {
  /// Roughly the bytes the value takes once pushed into Lua, to check it against the
  /// memory cap before pushing: the host's pushes must never fail half-way.
  var estimatedLuaBytes: Int {
    switch self {
    case .string(let text): 32 + text.utf8.count
    case .table(let table):
      table.sequence.reduce(64) { $0 + 16 + $1.estimatedLuaBytes }
        + table.fields.reduce(0) { $0 + 64 + $1.key.utf8.count + $1.value.estimatedLuaBytes }
    default: 16
    }
  }
}
