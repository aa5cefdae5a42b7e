import DropRules
import DropRulesModel
import Foundation

/// Reading JSON values of an expected shape, each failure naming its path.
extension ScenarioDecoder {
  /// An optional key's value: `null` is the same as leaving the key out.
  func present(_ fields: [String: JSONValue], _ key: String) -> JSONValue? {
    guard let value = fields[key] else { return nil }
    if case .null = value { return nil }
    return value
  }

  func error(at path: String, _ message: String) -> ScenarioError {
    ScenarioError(file: file, path: path, message: message)
  }

  /// A target that `path` names and the board lacks, with the nearest id as a suggestion.
  func noTarget(_ id: String, on board: Board, at path: String) -> ScenarioError {
    var error = error(at: path, Self.noTarget(id, on: board))
    error.notOnBoard = .target(id)
    return error
  }

  /// An item that `path` names and the board lacks, with the nearest id as a suggestion.
  func noItem(_ id: String, on board: Board, at path: String) -> ScenarioError {
    var error = error(at: path, Self.noItem(id, on: board))
    error.notOnBoard = .item(id)
    return error
  }

  /// A required key that is not there (or is `null`); `path` ends with the key.
  func missing(_ path: String) -> ScenarioError {
    let key = path.split(separator: ".").last.map(String.init) ?? path
    return error(at: path, "required key '\(key.capped(.name))' is missing")
  }

  // Paths are autoclosures: they are built only for an error, never for the values of
  // a board that loads.

  func object(
    _ json: JSONValue, at path: @autoclosure () -> String, expected: String = "an object"
  ) throws(ScenarioError) -> [String: JSONValue] {
    if case .object(let fields) = json { return fields }
    if case .array(let values) = json, values.isEmpty { return [:] }
    throw error(at: path(), "expected \(expected), got \(json.kindName)")
  }

  func array(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> [JSONValue] {
    if case .array(let values) = json { return values }
    // An empty Lua table reads as an empty object; it is an empty list here.
    if case .object(let fields) = json, fields.isEmpty { return [] }
    throw error(at: path(), "expected an array, got \(json.kindName)")
  }

  func string(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> String {
    guard case .string(let value) = json else { throw error(at: path(), "expected a string, got \(json.kindName)") }
    return value
  }

  func boolean(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> Bool {
    guard case .bool(let value) = json else { throw error(at: path(), "expected true or false, got \(json.kindName)") }
    return value
  }

  func number(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> Double {
    guard let value = json.numberValue, value.isFinite else {
      throw error(at: path(), "expected a number, got \(json.kindName)")
    }
    return value
  }

  func integer(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> Int {
    _ = try number(json, at: path())
    guard let value = json.integerValue else { throw error(at: path(), "expected a whole number") }
    return Int(value)
  }

  /// An insertion index: any whole number, whatever its size, clamped as the board clamps
  /// every index (`Board.index`).
  func index(_ json: JSONValue, at path: @autoclosure () -> String) throws(ScenarioError) -> Int {
    let value = try number(json, at: path())
    guard value.rounded() == value else { throw error(at: path(), "expected a whole number") }
    return json.integerValue.map(Board.index) ?? Board.index(value)
  }

  func names<Name: RawRepresentable & CaseIterable>(
    _ json: JSONValue, at path: String, as: Name.Type
  ) throws(ScenarioError) -> [Name] where Name.RawValue == String {
    try array(json, at: path).enumerated().map { offset, value throws(ScenarioError) in
      let name = try string(value, at: "\(path)\(position(offset))")
      guard let parsed = Name(rawValue: name) else {
        let valid = Name.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        throw error(
          at: "\(path)\(position(offset))", "unknown value \"\(name.capped(.name))\"; expected one of \(valid)")
      }
      return parsed
    }
  }

  /// Refuses the first unknown key, in sorted order. `keys` is a short list: searching
  /// it costs less than hashing into a set made for each object.
  func allowOnly(
    _ keys: [String], in fields: [String: JSONValue], at path: @autoclosure () -> String
  ) throws(ScenarioError) {
    guard let key = fields.keys.filter({ !keys.contains($0) }).min() else { return }
    let location = path().isEmpty ? key.capped(.name) : "\(path()).\(key.capped(.name))"
    var message = "unknown key '\(key.capped(.name))'"
    if let suggestion = DidYouMean.suggestion(for: key, among: keys) {
      message += "; did you mean \(suggestion)?"
    }
    throw error(at: location, message)
  }
}
