import DropRules
import DropRulesModel

/// The protocol's answers about the board and the server: `board`, `describe`, `version`.
extension ProtocolDispatcher {
  /// `{"targets": {id: [item ids]}, "data": {id: {...}}, "itemData": {id: {...}}}`, as
  /// `run --format json` shows the final board: data only for targets and board items
  /// that have some. `only`: the targets to include (nil, all).
  static func boardJSON(_ board: Board, only: Set<TargetID>? = nil) -> JSONValue {
    var targets: [String: JSONValue] = [:]
    var data: [String: JSONValue] = [:]
    var itemData: [String: JSONValue] = [:]
    for target in board.targets where only?.contains(target.id) ?? true {
      targets[target.id] = .array(target.items.map(JSONValue.string))
      if !target.data.isEmpty { data[target.id] = .object(target.data) }
      for id in target.items {
        if let item = board.item(id), !item.data.isEmpty { itemData[id] = .object(item.data) }
      }
    }
    return .object(["targets": .object(targets), "data": .object(data), "itemData": .object(itemData)])
  }

  /// Everything a client needs to draw the board: targets in drawing order (later on
  /// top) with frames, parents, data and items with their names and types; the declared
  /// types; the rule files; whether a drag is in progress. `only`: the targets to
  /// include (nil, all).
  func describe(staged: Bool, only: Set<TargetID>? = nil) -> JSONValue {
    let board = staged ? session.host.currentBoard : session.host.board
    let targets = board.targets.filter { only?.contains($0.id) ?? true }.map { target -> JSONValue in
      .object([
        "id": .string(target.id),
        "type": .string(target.type),
        "frame": .frame(target.frame),
        "parent": target.parent.map(JSONValue.string) ?? .null,
        "data": .object(target.data),
        "axis": target.axis.map { .string($0.rawValue) } ?? .null,
        "itemExtent": target.itemExtent.map(JSONValue.coordinate) ?? .null,
        "collapsed": .bool(target.collapsed),
        "items": .array(target.items.map { Self.itemJSON(id: $0, item: board.item($0)) }),
      ])
    }
    return .object([
      "targets": .array(targets),
      "types": .array(
        session.declaredTypes.map { type in
          .object(["id": .string(type.id.rawValue), "conformsTo": .array(type.conformsTo.map { .string($0.rawValue) })])
        }),
      "rules": .array(session.ruleFiles.map(JSONValue.string)),
      "dragging": .bool(session.isDragging),
    ])
  }

  /// The protocol version, its methods and the limits the server runs under.
  func version() -> JSONValue {
    let limits = session.limits
    return .object([
      "protocol": .integer(Int64(Self.protocolVersion)),
      "methods": .array(Method.allCases.map { .string($0.rawValue) }),
      "maximumRequestBytes": .integer(Int64(Self.maximumRequestBytes)),
      "maximumAnswerBytes": .integer(Int64(maximumAnswerBytes)),
      "maximumBatchSize": .integer(Int64(Self.maximumBatchSize)),
      "limits": .object([
        "maxInstructions": .integer(Int64(limits.maxInstructions)),
        "maxMemory": .integer(Int64(limits.maxMemory)),
        "maxTimeMs": .integer(Int64(limits.maxTimeMilliseconds)),
      ]),
    ])
  }

  private static func itemJSON(id: ItemID, item: DragItem?) -> JSONValue {
    .object([
      "id": .string(id),
      "name": item?.name.map(JSONValue.string) ?? .null,
      "types": .array((item?.types ?? []).map { .string($0.rawValue) }),
      "data": .object(item?.data ?? [:]),
      "opens": item?.opens.map(JSONValue.string) ?? .null,
    ])
  }
}
