/// The fields of `info` that belong to the running call, declared once: api.lua takes
/// their names and kinds from here when it loads (`host.callFieldNames`), and reads
/// their values, in this order, once a call (`host.callFields`).
extension RuleFileState {
  /// What a field's value is in Lua: the value itself, or the object of an item or a
  /// target named by its id.
  enum CallFieldKind: String, Sendable {
    case value, item, target
  }

  struct CallField: Sendable {
    let name: String
    let kind: CallFieldKind
    let read: @Sendable (RuleFileState, HandlerContext, _ position: Int) -> LuaValue
  }

  static let callFieldList: [CallField] = [
    CallField(name: "index", kind: .value) { _, context, _ in context.index.map { .integer(Int64($0)) } ?? .nil },
    CallField(name: "hoverTime", kind: .value) { _, context, _ in
      context.hoverTime.map { .integer(Int64($0)) } ?? .nil
    },
    CallField(name: "operation", kind: .value) { _, context, _ in context.operation.map { .string($0.rawValue) } ?? .nil
    },
    CallField(name: "outcome", kind: .value) { _, context, _ in context.outcome.map { .string($0.rawValue) } ?? .nil },
    CallField(name: "edge", kind: .value) { _, context, _ in context.edge.map { .string($0.rawValue) } ?? .nil },
    CallField(name: "wouldContainItself", kind: .value) { _, context, _ in .boolean(context.wouldContainItself) },
    CallField(name: "outside", kind: .value) { _, context, _ in .boolean(context.outside) },
    CallField(name: "over", kind: .item) { state, context, position in
      state.item(at: context.over, in: position).map(LuaValue.string) ?? .nil
    },
    CallField(name: "destination", kind: .target) { state, context, _ in
      guard let destination = context.destination, let targets = state.engine?.currentBoard.targets,
        targets.indices.contains(destination)
      else { return .nil }
      return .string(targets[destination].id)
    },
  ]

  /// The names and kinds of ``callFieldList``, as two Lua lists.
  static var callFieldNames: [LuaValue] {
    [
      .table(LuaTable(sequence: callFieldList.map { .string($0.name) })),
      .table(LuaTable(sequence: callFieldList.map { .string($0.kind.rawValue) })),
    ]
  }

  /// The values of ``callFieldList`` in the running call.
  func callFields(of context: HandlerContext, position: Int) -> [LuaValue] {
    Self.callFieldList.map { $0.read(self, context, position) }
  }
}
