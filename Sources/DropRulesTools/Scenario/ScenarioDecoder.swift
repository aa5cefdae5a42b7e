import DropRules
import DropRulesModel
import Foundation

/// Reads scenarios from JSON (files) or from JSON-shaped values (Lua tests), checking
/// every field and naming its path when something is wrong.
public struct ScenarioDecoder {
  /// Scenario files larger than this are refused before parsing.
  public static let maximumFileSize = 16 * 1024 * 1024
  /// The keys a scenario, a target of its board and an item may have; any other is an error.
  static let scenarioKeys = ["name", "rules", "types", "board", "drag", "steps", "expect"]
  static let targetKeys = ["id", "type", "frame", "parent", "data", "items", "itemExtent", "axis", "collapsed"]
  static let itemKeys = ["id", "name", "representations", "data", "opens"]

  let file: String
  let baseDirectory: String
  let firstIndex: Int
  /// The most bytes a board file the scenario names may have.
  public var maximumBytes = maximumFileSize

  /// - Parameters:
  ///   - file: the name errors give (the scenario or test file).
  ///   - baseDirectory: where relative rule paths start.
  ///   - firstIndex: how error paths number list elements: 0 for JSON files, 1 for the
  ///     Lua tables of rule tests, so that a path matches what its author wrote.
  public init(file: String, baseDirectory: String, firstIndex: Int = 0) {
    self.file = file
    self.baseDirectory = baseDirectory
    self.firstIndex = firstIndex
  }

  /// The setting that raises the size limit, as messages name it; the command line
  /// names its flag instead.
  public static let maximumBytesSetting = "ScenarioDecoder.maximumBytes"

  /// `scenarios are limited to 16777216 bytes (raise it with ScenarioDecoder.maximumBytes)`.
  static func limitText(_ maximumBytes: Int) -> String {
    "scenarios are limited to \(maximumBytes) bytes (raise it with \(maximumBytesSetting))"
  }

  /// An element's place in an error path: `[0]` in JSON, `[1]` in Lua.
  func position(_ offset: Int) -> String {
    "[\(offset + firstIndex)]"
  }

  /// Loads a `*.scenario.json` file of at most `maximumBytes` (its board file too).
  public static func load(path: String, maximumBytes: Int = maximumFileSize) throws(ScenarioError) -> Scenario {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    if let size = attributes?[.size] as? Int, size > maximumBytes {
      var error = ScenarioError(file: path, path: "", message: "the file is \(size) bytes; " + limitText(maximumBytes))
      error.sizeLimit = maximumBytes
      throw error
    }
    guard let data = FileContents.bytes(atPath: path, maximumBytes: maximumBytes) else {
      throw ScenarioError(file: path, path: "", message: "cannot read the file")
    }
    if data.count > maximumBytes {
      var error = ScenarioError(file: path, path: "", message: "the file is over the limit; " + limitText(maximumBytes))
      error.sizeLimit = maximumBytes
      throw error
    }
    let json = try parse(data, file: path)
    let directory = (path as NSString).deletingLastPathComponent
    do {
      var decoder = ScenarioDecoder(file: path, baseDirectory: directory.isEmpty ? "." : directory)
      decoder.maximumBytes = maximumBytes
      return try decoder.decode(json)
    } catch {
      // An error in a board file the scenario names is located in that file already.
      guard error.file == path else { throw error }
      throw located(error, in: data)
    }
  }

  /// The JSON of a file's text, or an error at the line and column where it is not JSON.
  static func parse(_ data: Data, file: String) throws(ScenarioError) -> JSONValue {
    do {
      return try JSONValue.parse(data)
    } catch {
      throw ScenarioError(
        file: file, path: "", message: "not valid JSON: \(error.message)", line: error.line, column: error.column)
    }
  }

  /// `error` with the line and column of the value it is about, found in the text again:
  /// editors link to file:line:column.
  static func located(_ error: ScenarioError, in data: Data) -> ScenarioError {
    var located = error
    if let (line, column) = JSONLocator.lineAndColumn(of: error.path, in: Array(data)) {
      located.line = line
      located.column = column
    }
    return located
  }

  /// Decodes a scenario from its JSON form.
  ///
  /// - Parameters:
  ///   - json: the scenario object.
  ///   - defaultRules: rule paths used when the scenario names none.
  ///   - requiresDrag: false for Lua tests, whose drags come later from `sim:drag`.
  /// - Returns: the scenario, its rule paths resolved against the base directory.
  /// - Throws: ``ScenarioError`` naming the path of the first value that is missing,
  ///   unknown or of the wrong shape.
  public func decode(
    _ json: JSONValue, defaultRules: [String] = [], requiresDrag: Bool = true
  ) throws(ScenarioError) -> Scenario {
    let root = try object(json, at: "")
    try allowOnly(Self.scenarioKeys, in: root, at: "")
    let name = try present(root, "name").map { value throws(ScenarioError) in try string(value, at: "name") } ?? file
    var rules = defaultRules
    if let list = present(root, "rules") {
      rules = try array(list, at: "rules").enumerated().map { offset, value throws(ScenarioError) in
        try rulePath(string(value, at: "rules\(position(offset))"), at: "rules\(position(offset))")
      }
    }
    let types = try present(root, "types").map { value throws(ScenarioError) in try decodeTypes(value) } ?? []
    guard let boardJSON = root["board"] else { throw missing("board") }
    let board: Board
    if case .string(let path) = boardJSON {
      board = try decodeBoardFile(path, at: "board")
    } else {
      board = try decodeBoard(boardJSON)
    }
    let drag: DragRequest
    if let dragJSON = present(root, "drag") {
      drag = try decodeDrag(dragJSON, board: board)
    } else if requiresDrag {
      throw missing("drag")
    } else {
      drag = DragRequest(items: [])
    }
    let steps = try decodeSteps(present(root, "steps") ?? .array([]), board: board)
    let expect = try present(root, "expect").map { value throws(ScenarioError) in
      try decodeExpectation(value, board: board)
    }
    return Scenario(
      name: name, file: file, rules: rules, types: types, board: board, drag: drag, steps: steps, expect: expect)
  }

  // MARK: Parts

  func rulePath(_ path: String, at location: String) throws(ScenarioError) -> String {
    let resolved = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else {
      throw error(at: location, "rule file '\(path.capped(.name))' not found (looked for \(resolved))")
    }
    return resolved
  }

  /// Decodes declared types: `[{"id", "conformsTo": [...]}]`; `at` names the list in errors.
  func decodeTypes(_ json: JSONValue, at listPath: String = "types") throws(ScenarioError) -> [(
    id: TypeIdentifier, conformsTo: [TypeIdentifier]
  )] {
    try array(json, at: listPath).enumerated().map { offset, value throws(ScenarioError) in
      let path = "\(listPath)\(position(offset))"
      let fields = try object(value, at: path)
      try allowOnly(["id", "conformsTo"], in: fields, at: path)
      guard let id = fields["id"] else { throw missing(path + ".id") }
      let parents = try
        (present(fields, "conformsTo").map { value throws(ScenarioError) in try array(value, at: path + ".conformsTo") }
        ?? [])
        .enumerated().map { index, parent throws(ScenarioError) in
          TypeIdentifier(try string(parent, at: "\(path).conformsTo\(position(index))"))
        }
      return (TypeIdentifier(try string(id, at: path + ".id")), parents)
    }
  }

  /// Decodes a board: `{"targets": [...]}`; `at` names it in errors.
  func decodeBoard(_ json: JSONValue, at boardPath: String = "board") throws(ScenarioError) -> Board {
    let fields = try object(json, at: boardPath)
    try allowOnly(["targets"], in: fields, at: boardPath)
    guard let targetsJSON = fields["targets"] else { throw missing(boardPath + ".targets") }
    var targets: [DropTarget] = []
    var items: [DragItem] = []
    // Where each target id was declared, as offsets: paths are made only for an error.
    var targetOffsets: [TargetID: Int] = [:]
    let targetsList = try array(targetsJSON, at: boardPath + ".targets")
    targets.reserveCapacity(targetsList.count)
    targetOffsets.reserveCapacity(targetsList.count)
    let targetPath = { (offset: Int) in "\(boardPath).targets\(self.position(offset))" }
    for (offset, value) in targetsList.enumerated() {
      let (target, targetItems) = try decodeTarget(value, at: targetPath(offset))
      if let first = targetOffsets.updateValue(offset, forKey: target.id) {
        throw error(
          at: targetPath(offset) + ".id",
          "duplicate target id '\(target.id.capped(.name))' (first at \(targetPath(first)))")
      }
      targets.append(target)
      items += targetItems
    }
    do {
      return try Board(targets: targets, items: items)
    } catch let boardError {
      let path: String
      switch boardError {
      case .unknownParent(let target, _), .parentCycle(let target):
        path = (targetOffsets[target].map(targetPath) ?? boardPath) + ".parent"
      default: path = boardPath + ".targets"
      }
      throw error(at: path, boardError.description)
    }
  }

  func decodeTarget(
    _ json: JSONValue, at path: @autoclosure () -> String
  ) throws(ScenarioError) -> (DropTarget, [DragItem]) {
    let fields = try object(json, at: path())
    try allowOnly(Self.targetKeys, in: fields, at: path())
    guard let id = fields["id"] else { throw missing(path() + ".id") }
    guard let type = fields["type"] else { throw missing(path() + ".type") }
    guard let frameJSON = fields["frame"] else { throw missing(path() + ".frame") }
    let frame = try decodeFrame(frameJSON, at: path() + ".frame")
    let data =
      try present(fields, "data").map { value throws(ScenarioError) in try object(value, at: path() + ".data") } ?? [:]
    let items = try
      (present(fields, "items").map { value throws(ScenarioError) in try array(value, at: path() + ".items") } ?? [])
      .enumerated().map { offset, value throws(ScenarioError) in
        try decodeItem(value, at: "\(path()).items\(position(offset))")
      }
    var axis: ItemAxis?
    if let axisJSON = present(fields, "axis") {
      let name = try string(axisJSON, at: path() + ".axis")
      guard let parsed = ItemAxis(rawValue: name) else {
        throw error(at: path() + ".axis", "expected \"vertical\" or \"horizontal\", got \"\(name)\"")
      }
      axis = parsed
    }
    var extent: Double?
    if let extentJSON = present(fields, "itemExtent") {
      let value = try number(extentJSON, at: path() + ".itemExtent")
      guard value > 0 else {
        throw error(at: path() + ".itemExtent", "must be greater than 0, got \(formatNumber(value))")
      }
      extent = value
    }
    let target = DropTarget(
      id: try string(id, at: path() + ".id"), type: try string(type, at: path() + ".type"), frame: frame,
      parent: try present(fields, "parent").map { value throws(ScenarioError) in
        try string(value, at: path() + ".parent")
      },
      data: data, items: items.map(\.id), axis: axis, itemExtent: extent,
      collapsed: try present(fields, "collapsed").map { value throws(ScenarioError) in
        try boolean(value, at: path() + ".collapsed")
      } ?? false)
    return (target, items)
  }

  func decodeFrame(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> Rect {
    let values = try array(json, at: path())
    guard values.count == 4 else {
      throw error(at: path(), "expected [x, y, width, height], got \(values.count) values")
    }
    let numbers = try values.enumerated().map { offset, value throws(ScenarioError) in
      try number(value, at: "\(path())\(position(offset))")
    }
    guard numbers[2] >= 0, numbers[3] >= 0 else { throw error(at: path(), "width and height must not be negative") }
    return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
  }

  func decodeItem(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> DragItem {
    let fields = try object(json, at: path())
    try allowOnly(Self.itemKeys, in: fields, at: path())
    guard let id = fields["id"] else { throw missing(path() + ".id") }
    let representations = try
      (present(fields, "representations").map { value throws(ScenarioError) in
        try array(value, at: path() + ".representations")
      } ?? []).enumerated().map { offset, value throws(ScenarioError) in
        try decodeRepresentation(value, at: "\(path()).representations\(position(offset))")
      }
    return DragItem(
      id: try string(id, at: path() + ".id"),
      name: try present(fields, "name").map { value throws(ScenarioError) in try string(value, at: path() + ".name") },
      representations: representations,
      data: try present(fields, "data").map { value throws(ScenarioError) in try object(value, at: path() + ".data") }
        ?? [:],
      opens: try present(fields, "opens").map { value throws(ScenarioError) in
        try string(value, at: path() + ".opens")
      })
  }

  func decodeRepresentation(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError)
    -> Representation
  {
    if case .array(let pair) = json {
      guard pair.count == 2 else { throw error(at: path(), "expected [type, payload], got \(pair.count) values") }
      return Representation(
        type: TypeIdentifier(try string(pair[0], at: path() + "[0]")), payload: try string(pair[1], at: path() + "[1]"))
    }
    let fields = try object(json, at: path(), expected: "[type, payload] or {\"type\", \"payload\"}")
    guard let type = fields["type"] else { throw missing(path() + ".type") }
    return Representation(
      type: TypeIdentifier(try string(type, at: path() + ".type")),
      payload: try present(fields, "payload").map { value throws(ScenarioError) in
        try string(value, at: path() + ".payload")
      }
        ?? "")
  }

  func decodeExpectation(_ json: JSONValue, board: Board) throws(ScenarioError) -> ScenarioExpectation {
    let fields = try object(json, at: "expect")
    try allowOnly(
      ["proposals", "targets", "indexes", "outcome", "board", "data", "errors", "printed", "refused"], in: fields,
      at: "expect")
    var expectation = ScenarioExpectation()
    expectation.proposals = try present(fields, "proposals").map { value throws(ScenarioError) in
      try names(value, at: "expect.proposals", as: Proposal.self)
    }
    if let outcome = present(fields, "outcome") {
      let name = try string(outcome, at: "expect.outcome")
      guard let parsed = DropOutcome(rawValue: name) else {
        throw error(
          at: "expect.outcome", "expected \"performed\", \"cancelled\", \"failed\" or \"refused\", got \"\(name)\"")
      }
      expectation.outcome = parsed
    }
    if let boardJSON = present(fields, "board") {
      var expected: [TargetID: [String]] = [:]
      for (id, list) in try object(boardJSON, at: "expect.board") {
        guard board.target(id) != nil else { throw noTarget(id, on: board, at: "expect.board.\(id)") }
        expected[id] = try array(list, at: "expect.board.\(id)").enumerated().map {
          offset, value throws(ScenarioError) in
          try string(value, at: "expect.board.\(id)\(position(offset))")
        }
      }
      expectation.board = expected
    }
    if let dataJSON = present(fields, "data") {
      var expected: [TargetID: [String: JSONValue]] = [:]
      for (id, keys) in try object(dataJSON, at: "expect.data") {
        guard board.target(id) != nil else { throw noTarget(id, on: board, at: "expect.data.\(id)") }
        expected[id] = try object(keys, at: "expect.data.\(id)")
      }
      expectation.data = expected
    }
    expectation.errors = try present(fields, "errors").map { value throws(ScenarioError) in
      try integer(value, at: "expect.errors")
    }
    try decodeStepExpectations(fields, board: board, into: &expectation)
    return expectation
  }
}
