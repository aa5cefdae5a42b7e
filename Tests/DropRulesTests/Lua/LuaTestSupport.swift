import Foundation

@testable import DropRules

extension LuaRuntime {
  /// Runs `source` in a fresh sandboxed environment and returns its results.
  @discardableResult
  func evaluate(_ source: String, globals: [String: LuaValue] = [:]) throws(LuaError) -> [LuaValue] {
    let environment = try newEnvironment(globals: globals)
    let chunk = try load(source: source, chunkName: "=test", environment: environment)
    return try call(chunk)
  }

  func evaluateFirst(_ source: String, globals: [String: LuaValue] = [:]) throws(LuaError) -> LuaValue {
    try evaluate(source, globals: globals).first ?? .nil
  }
}

/// A temporary directory removed when the value is dropped.
final class TemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("droprules-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  @discardableResult
  func write(_ relativePath: String, _ contents: String) throws -> String {
    let file = (path as NSString).appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try contents.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}

extension LuaValue: Equatable {
  public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
    switch (lhs, rhs) {
    case (.nil, .nil): true
    case (.boolean(let a), .boolean(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.table(let a), .table(let b)): a.sequence == b.sequence && a.fields == b.fields
    case (.function(let a), .function(let b)), (.reference(let a), .reference(let b)): a === b
    default: false
    }
  }
}
