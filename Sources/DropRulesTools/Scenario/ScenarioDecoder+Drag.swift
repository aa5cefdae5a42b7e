import DropRules
import DropRulesModel
import Foundation

/// The drag and its steps, as scenario files and the host protocol write them.
extension ScenarioDecoder {
  /// Decodes a drag: `{items, allowedOperations, modifiers}` against `board`; `at`
  /// names it in errors.
  public func decodeDrag(_ json: JSONValue, board: Board, at dragPath: String = "drag") throws(ScenarioError)
    -> DragRequest
  {
    let fields = try object(json, at: dragPath)
    try allowOnly(["items", "allowedOperations", "modifiers"], in: fields, at: dragPath)
    guard let itemsJSON = present(fields, "items") else { throw missing(dragPath + ".items") }
    let items = try array(itemsJSON, at: dragPath + ".items").enumerated().map { offset, value throws(ScenarioError) in
      let path = "\(dragPath).items\(position(offset))"
      if case .string(let id) = value {
        guard board.contains(item: id) else { throw noItem(id, on: board, at: path) }
        return DraggedItem.board(id)
      }
      let item = try decodeItem(value, at: path)
      guard board.item(item.id) == nil else {
        throw error(at: path + ".id", "external item '\(item.id.capped(.name))' has the id of a board item")
      }
      guard item.opens == nil else {
        throw error(
          at: path + ".opens", "an external item cannot stand for a target; only an item on the board can open one")
      }
      return DraggedItem.external(item)
    }
    guard !items.isEmpty else { throw error(at: dragPath + ".items", "a drag needs at least one item") }
    var seen: Set<ItemID> = []
    for (offset, item) in items.enumerated() where !seen.insert(item.id).inserted {
      throw error(at: "\(dragPath).items\(position(offset))", "item '\(item.id.capped(.name))' is dragged twice")
    }
    let allowed = try present(fields, "allowedOperations").map { value throws(ScenarioError) in
      Set(try names(value, at: dragPath + ".allowedOperations", as: DragOperation.self))
    }
    let modifiers =
      try present(fields, "modifiers").map { value throws(ScenarioError) in
        Set(try names(value, at: dragPath + ".modifiers", as: Modifier.self))
      } ?? []
    return DragRequest(items: items, allowedOperations: allowed, modifiers: modifiers)
  }

  func decodeSteps(_ json: JSONValue, board: Board) throws(ScenarioError) -> [DragStep] {
    let steps = try array(json, at: "steps").enumerated().map { offset, value throws(ScenarioError) in
      try decodeStep(value, at: "steps\(position(offset))", board: board)
    }
    if let end = steps.firstIndex(where: \.endsDrag), end != steps.count - 1 {
      throw error(at: "steps\(position(end + 1))", "no step may follow \"drop\" or \"cancel\"")
    }
    return steps
  }

  /// Decodes one step. With a `board`, an `over` step must name one of its targets;
  /// without one (the host protocol), the host checks the target when the step runs.
  func decodeStep(_ json: JSONValue, at path: String, board: Board?) throws(ScenarioError) -> DragStep {
    let expected =
      "expected {\"at\": [x, y]}, {\"over\": id}, {\"modifiers\": [...]}, {\"outside\": {...}}, {\"wait\": ms}, "
      + "{\"frames\": {id: [x, y, w, h]}}, \"drop\" or \"cancel\""
    if case .string(let word) = json {
      switch word {
      case "drop": return .drop
      case "cancel": return .cancel
      default: throw error(at: path, "unknown step \"\(word)\"; \(expected)")
      }
    }
    let fields = try object(json, at: path, expected: expected)
    if let at = fields["at"] {
      try allowOnly(["at"], in: fields, at: path)
      let values = try array(at, at: path + ".at")
      guard values.count == 2 else { throw error(at: path + ".at", "expected [x, y], got \(values.count) values") }
      return .at(Point(x: try number(values[0], at: path + ".at[0]"), y: try number(values[1], at: path + ".at[1]")))
    }
    if let over = fields["over"] {
      try allowOnly(["over", "index"], in: fields, at: path)
      let id = try string(over, at: path + ".over")
      if let board, board.target(id) == nil {
        throw noTarget(id, on: board, at: path + ".over")
      }
      let index = try present(fields, "index").map { value throws(ScenarioError) in
        try self.index(value, at: path + ".index")
      }
      return .over(id, index: index)
    }
    if let modifiers = fields["modifiers"] {
      try allowOnly(["modifiers"], in: fields, at: path)
      return .modifiers(Set(try names(modifiers, at: path + ".modifiers", as: Modifier.self)))
    }
    if let outside = fields["outside"] {
      try allowOnly(["outside"], in: fields, at: path)
      return try decodeOutside(outside, at: path + ".outside")
    }
    if let wait = fields["wait"] {
      try allowOnly(["wait"], in: fields, at: path)
      let milliseconds = try integer(wait, at: path + ".wait")
      if let problem = DragStep.waitProblem(milliseconds) { throw error(at: path + ".wait", problem) }
      return .wait(milliseconds: milliseconds)
    }
    if let frames = fields["frames"] {
      try allowOnly(["frames"], in: fields, at: path)
      return .frames(try decodeFrames(frames, at: path + ".frames", board: board))
    }
    throw error(at: path, "unknown step with keys \(fields.keys.sorted()); \(expected)")
  }

  /// `{id: [x, y, width, height], ...}`: new frames after a layout change. With a
  /// `board`, every id must name one of its targets.
  public func decodeFrames(_ json: JSONValue, at path: String, board: Board?) throws(ScenarioError)
    -> [TargetID: Rect]
  {
    var frames: [TargetID: Rect] = [:]
    for (id, value) in try object(json, at: path, expected: "{id: [x, y, width, height]}").sorted(by: {
      $0.key < $1.key
    }) {
      if let board, board.target(id) == nil { throw noTarget(id, on: board, at: "\(path).\(id)") }
      frames[id] = try decodeFrame(value, at: "\(path).\(id)")
    }
    guard !frames.isEmpty else { throw error(at: path, "name at least one target and its new frame") }
    return frames
  }

  /// `{"accepts": [types], "operation": "copy" | "move"}`, both optional.
  func decodeOutside(_ json: JSONValue, at path: String) throws(ScenarioError) -> DragStep {
    let fields = try object(json, at: path, expected: "{\"accepts\": [types], \"operation\": \"copy\"}")
    try allowOnly(["accepts", "operation"], in: fields, at: path)
    var accepts: [TypeIdentifier] = ["public.item"]
    if let value = present(fields, "accepts") {
      if case .string(let type) = value {
        accepts = [TypeIdentifier(type)]
      } else {
        accepts = try array(value, at: path + ".accepts").enumerated().map { offset, type throws(ScenarioError) in
          TypeIdentifier(try string(type, at: path + ".accepts\(position(offset))"))
        }
      }
      guard !accepts.isEmpty else { throw error(at: path + ".accepts", "name at least one type the app takes") }
    }
    var operation = DragOperation.copy
    if let value = present(fields, "operation") {
      let name = try string(value, at: path + ".operation")
      guard let parsed = DragOperation(rawValue: name) else {
        throw error(at: path + ".operation", "unknown operation \"\(name)\"; expected \"copy\" or \"move\"")
      }
      operation = parsed
    }
    return .outside(accepts: accepts, operation: operation)
  }
}
