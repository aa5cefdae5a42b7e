import DropRules
import DropRulesModel

/// A method's params, read with the scenario decoder, so that the protocol and the
/// scenario files share one reading of boards, drags and steps, and one kind of error
/// path (`$.params.targets[0].frame`).
struct RPCParams {
  /// The params object; an absent params member reads as `{}`.
  let fields: [String: JSONValue]
  let decoder = ScenarioDecoder(file: "request", baseDirectory: ".")
  static let root = "$.params"

  /// Reads the params of a method that takes the keys `allowed` by name.
  init(_ params: JSONValue?, allowed: [String]) throws(RPCError) {
    let decoder = self.decoder
    do {
      // An empty array is no params, by position or by name.
      fields =
        try params.map { value throws(ScenarioError) in
          try decoder.object(value, at: Self.root, expected: "an object of named params")
        } ?? [:]
      try decoder.allowOnly(allowed, in: fields, at: Self.root)
    } catch {
      throw Self.invalid(error)
    }
  }

  subscript(key: String) -> JSONValue? { fields[key] }

  /// Runs a decoder step, turning its error into invalid params at the same path.
  func read<Value>(_ body: (ScenarioDecoder) throws(ScenarioError) -> Value) throws(RPCError) -> Value {
    do { return try body(decoder) } catch { throw Self.invalid(error) }
  }

  /// A list of strings at `key`, or nil when absent.
  func strings(_ key: String) throws(RPCError) -> [String]? {
    guard let value = fields[key] else { return nil }
    return try read { decoder throws(ScenarioError) in
      try decoder.array(value, at: "\(Self.root).\(key)").enumerated().map { offset, element throws(ScenarioError) in
        try decoder.string(element, at: "\(Self.root).\(key)[\(offset)]")
      }
    }
  }

  /// A boolean at `key`, false when absent.
  func flag(_ key: String) throws(RPCError) -> Bool {
    guard let value = fields[key] else { return false }
    guard case .bool(let flag) = value else {
      throw .invalidParams(at: "\(Self.root).\(key)", "expected a boolean, got \(value.kindName)")
    }
    return flag
  }

  /// Invalid params with the path the decoder named.
  /// Params the decoder refused: of the wrong shape, or naming what is not on the board,
  /// which every method answers as a drag call naming it does.
  static func invalid(_ error: ScenarioError) -> RPCError {
    let path = error.path.isEmpty ? root : error.path
    guard let subject = error.notOnBoard else { return .invalidParams(at: path, error.message) }
    return .notOnBoard(subject, at: path, error.message)
  }
}
