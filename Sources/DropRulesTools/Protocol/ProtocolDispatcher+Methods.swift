import DropRules
import DropRulesModel
import Foundation

/// The protocol's methods: each reads its params, calls the session and answers with
/// JSON. A method that needs a drag (or needs none) says so with a drag error before
/// it reads its params.
extension ProtocolDispatcher {
  /// The methods, by the names requests use.
  enum Method: String, CaseIterable {
    case load, setBoard, beginDrag, move, modifiers, outside, wait, setFrames, drop, cancel, board, describe, trace
    case errors
    case version
  }

  /// What a method answers: a value, or a drag step, which is written straight into the
  /// answer's text (the step of a move, built as a value and then written, spent most of
  /// a move's instructions in `droprules serve`).
  enum Answer {
    case value(JSONValue)
    case step(TraceStep)
    /// A drag's steps, written one by one: a long trace is never built as one value,
    /// and writing stops once the answer passed its bound.
    case steps([TraceStep])

    func write(into writer: JSONTextWriter) {
      switch self {
      case .value(let value): writer.value(value)
      case .step(let step): StepJSON.write(step, into: writer)
      case .steps(let steps):
        writer.beginArray()
        for step in steps where !writer.isFull { StepJSON.write(step, into: writer) }
        writer.endArray()
      }
    }
  }

  func call(_ method: Method, params: JSONValue?) throws(RPCError) -> Answer {
    switch method {
    case .load: return .value(try load(params))
    case .setBoard: return .value(try setBoard(params))
    case .beginDrag: return try beginDrag(params)
    case .move: return try move(params)
    case .modifiers: return try modifiers(params)
    case .outside: return try outside(params)
    case .wait: return try wait(params)
    case .setFrames: return try setFrames(params)
    case .drop:
      try requireDrag(params, allowed: [])
      return try run(.drop)
    case .cancel:
      try requireDrag(params, allowed: [])
      return try run(.cancel)
    case .board:
      let read = try RPCParams(params, allowed: ["staged", "targets"])
      let board = try read.flag("staged") ? session.host.currentBoard : session.host.board
      return .value(Self.boardJSON(board, only: try Self.targets(read, on: board)))
    case .describe:
      let read = try RPCParams(params, allowed: ["staged", "targets"])
      let staged = try read.flag("staged")
      let only = try Self.targets(read, on: staged ? session.host.currentBoard : session.host.board)
      return .value(describe(staged: staged, only: only))
    case .trace:
      _ = try RPCParams(params, allowed: [])
      return .steps(session.host.trace)
    case .errors:
      _ = try RPCParams(params, allowed: [])
      return .value(.object(["errors": .array(session.dragDiagnostics.map(TraceReport.json))]))
    case .version:
      _ = try RPCParams(params, allowed: [])
      return .value(version())
    }
  }

  /// The targets a `board` or `describe` asks for (`targets: [ids]`), so that a client
  /// can ask for a large board a part at a time; nil for all. An id not on the board is
  /// an `unknownTarget` error, as everywhere.
  private static func targets(_ params: RPCParams, on board: Board) throws(RPCError) -> Set<TargetID>? {
    guard let ids = try params.strings("targets") else { return nil }
    for (offset, id) in ids.enumerated() where board.target(id) == nil {
      throw .notOnBoard(
        .target(id), at: "\(RPCParams.root).targets[\(offset)]", ScenarioDecoder.noTarget(id, on: board))
    }
    return Set(ids)
  }

  // MARK: Between drags

  private func load(_ json: JSONValue?) throws(RPCError) -> JSONValue {
    try requireNoDrag()
    let params = try RPCParams(json, allowed: ["rules"])
    let paths = try params.strings("rules")
    // A rule file that cannot load, for whatever reason, is a rule load error (-32001);
    // only `rules` that is not a list of strings is invalid params.
    for path in paths ?? [] {
      guard FileManager.default.fileExists(atPath: path), let resolved = RealPath.of(path) else {
        throw .ruleFilesNotLoaded(["\(path.capped(.name)): no such rule file or folder"])
      }
      if let ruleRoots, !ruleRoots.contains(where: { resolved == $0 || resolved.hasPrefix($0 + "/") }) {
        throw .ruleFilesNotLoaded([
          "\(path.capped(.name)): outside the folders rules load from here (\(ruleRoots.joined(separator: ", ")))"
        ])
      }
    }
    let report: RuleLoadReport
    do { report = try session.loadRules(paths) } catch { throw .session(error) }
    return .object([
      "files": .array(report.files.map(JSONValue.string)),
      "warnings": .array(report.warnings.map { .string($0.description) }),
      "printed": .array(report.printed.map(JSONValue.string)),
    ])
  }

  private func setBoard(_ json: JSONValue?) throws(RPCError) -> JSONValue {
    try requireNoDrag()
    let params = try RPCParams(json, allowed: ["targets", "types"])
    let board = try params.read { decoder throws(ScenarioError) in
      try decoder.decodeBoard(.object(params.fields.filter { $0.key == "targets" }), at: RPCParams.root)
    }
    let types = try params["types"].map { value throws(RPCError) in
      try params.read { decoder throws(ScenarioError) in
        try decoder.decodeTypes(value, at: RPCParams.root + ".types")
      }
    }
    do { try session.setBoard(board, types: types ?? []) } catch { throw .session(error) }
    return .object([
      "targets": .integer(Int64(board.targets.count)), "items": .integer(Int64(board.placedItems.count)),
    ])
  }

  // MARK: Drags

  private func beginDrag(_ json: JSONValue?) throws(RPCError) -> Answer {
    try requireNoDrag()
    let params = try RPCParams(json, allowed: ["items", "allowedOperations", "modifiers"])
    let board = session.host.board
    let request = try params.read { decoder throws(ScenarioError) in
      try decoder.decodeDrag(.object(params.fields), board: board, at: RPCParams.root)
    }
    return try stepResult { () throws(ProtocolSessionError) in try session.beginDrag(request) }
  }

  private func move(_ json: JSONValue?) throws(RPCError) -> Answer {
    let params = try requireDrag(json, allowed: ["at", "over", "index"])
    guard params["at"] != nil || params["over"] != nil else {
      throw .invalidParams(at: RPCParams.root, "expected {\"at\": [x, y]} or {\"over\": id, \"index\": n}")
    }
    return try run(step(params))
  }

  private func modifiers(_ json: JSONValue?) throws(RPCError) -> Answer {
    let params = try requireDrag(json, allowed: ["modifiers"])
    guard params["modifiers"] != nil else {
      throw .invalidParams(at: RPCParams.root + ".modifiers", "required key 'modifiers' is missing")
    }
    return try run(step(params))
  }

  private func outside(_ json: JSONValue?) throws(RPCError) -> Answer {
    let params = try requireDrag(json, allowed: ["accepts", "operation"])
    return try run(
      params.read { decoder throws(ScenarioError) in
        try decoder.decodeOutside(.object(params.fields), at: RPCParams.root)
      })
  }

  /// Reads params as a scenario step; the host checks a target id when the step runs,
  /// so an unknown target is a drag error, as it is for ``RuleHost/moveOver(_:index:)``.
  /// `{ms}`: a dwell, as a scenario's `{"wait": ms}` step.
  private func wait(_ json: JSONValue?) throws(RPCError) -> Answer {
    let params = try requireDrag(json, allowed: ["ms"])
    guard let value = params["ms"] else {
      throw .invalidParams(at: RPCParams.root + ".ms", "required key 'ms' is missing")
    }
    let milliseconds = try params.read { decoder throws(ScenarioError) in
      try decoder.integer(value, at: RPCParams.root + ".ms")
    }
    if let problem = DragStep.waitProblem(milliseconds) { throw .invalidParams(at: RPCParams.root + ".ms", problem) }
    return try run(.wait(milliseconds: milliseconds))
  }

  /// `{frames: {id: [x, y, w, h]}}`: a layout change. During a drag it is a step (the
  /// pointer is hit-tested again) and answers as `move` does; between drags, `{targets: n}`.
  private func setFrames(_ json: JSONValue?) throws(RPCError) -> Answer {
    let params = try RPCParams(json, allowed: ["frames"])
    guard let value = params["frames"] else {
      throw .invalidParams(at: RPCParams.root + ".frames", "required key 'frames' is missing")
    }
    let board = session.host.currentBoard
    let frames = try params.read { decoder throws(ScenarioError) in
      try decoder.decodeFrames(value, at: RPCParams.root + ".frames", board: board)
    }
    if session.isDragging { return try run(.frames(frames)) }
    do { try session.setFrames(frames) } catch { throw .session(error) }
    return .value(.object(["targets": .integer(Int64(frames.count))]))
  }

  private func step(_ params: RPCParams) throws(RPCError) -> DragStep {
    try params.read { decoder throws(ScenarioError) in
      try decoder.decodeStep(.object(params.fields), at: RPCParams.root, board: nil)
    }
  }

  private func run(_ step: DragStep) throws(RPCError) -> Answer {
    try stepResult { () throws(ProtocolSessionError) in try session.perform(step) }
  }

  /// A step as the trace shows it: the answer of every drag method.
  private func stepResult(_ call: () throws(ProtocolSessionError) -> TraceStep) throws(RPCError) -> Answer {
    do { return .step(try call()) } catch { throw .session(error) }
  }

  // MARK: State checks

  private func requireNoDrag() throws(RPCError) {
    if session.isDragging { throw .session(.drag(.dragInProgress)) }
  }

  @discardableResult
  private func requireDrag(_ json: JSONValue?, allowed: [String]) throws(RPCError) -> RPCParams {
    guard session.isDragging else { throw .session(.drag(.noDrag)) }
    return try RPCParams(json, allowed: allowed)
  }
}
