import DropRules
import DropRulesModel
import Foundation

/// A scenario's `board` given as a path: a board file (`desk.board.json`, holding what
/// `board` would, `{"targets": [...]}`) that scenarios and the `scenario{}` of rule tests
/// share.
extension ScenarioDecoder {
  /// Reads and decodes the board file at `path`, relative to the naming file's folder.
  ///
  /// Like rule files, a board file lies in the naming file's folder or below: a scenario
  /// from elsewhere could otherwise name any readable file, and a parse error quotes
  /// where it failed. Errors inside the file name the board file, with line and column.
  func decodeBoardFile(_ path: String, at location: String) throws(ScenarioError) -> Board {
    // A NUL would end the path early in the file system: the file named is not the one read.
    guard !path.contains("\0"), !path.isEmpty else {
      throw error(at: location, "board file path must be a non-empty path without NUL characters")
    }
    let resolved = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
    guard let real = RealPath.of(resolved) else {
      throw error(at: location, "board file '\(path.capped(.name))' not found (looked for \(resolved))")
    }
    if let folder = RealPath.of(baseDirectory), !RuleFileConfinement.path(real, isWithin: folder) {
      throw error(
        at: location,
        "board file '\(path.capped(.name))' (it leads to \(real)) is outside \(folder), the folder of the file that names it; "
          + "keep board files in that folder or below")
    }
    // Checked again on the file once open: a link swapped after the check above is refused.
    let data: Data
    switch FileContents.bytes(
      atPath: resolved, maximumBytes: maximumBytes, confinedTo: RealPath.of(baseDirectory).map { [$0] })
    {
    case .success(let bytes): data = bytes
    case .failure(.unreadable):
      throw error(at: location, "cannot read board file '\(path.capped(.name))' (a regular file is expected)")
    case .failure(.outside(let opened)):
      throw error(
        at: location,
        "board file '\(path.capped(.name))' (it leads to \(opened)) is outside the folder of the file that names it; keep "
          + "board files in that folder or below")
    }
    guard data.count <= maximumBytes else {
      var error = ScenarioError(
        file: resolved, path: "", message: "the board file is over the limit; " + Self.limitText(maximumBytes))
      error.sizeLimit = maximumBytes
      throw error
    }
    let json = try Self.parse(data, file: resolved)
    let directory = (resolved as NSString).deletingLastPathComponent
    let decoder = ScenarioDecoder(file: resolved, baseDirectory: directory.isEmpty ? "." : directory)
    do {
      return try decoder.decodeBoard(json, at: "")
    } catch {
      // Paths inside the board file start at its root: `targets[0].frame`.
      var rooted = error
      if rooted.path.hasPrefix(".") { rooted.path.removeFirst() }
      throw Self.located(rooted, in: data)
    }
  }
}

extension ScenarioDecoder {
  /// `expect.targets` and `expect.indexes` (one entry a pointer, outside or modifier
  /// step, null for none), `expect.printed` and `expect.refused`.
  func decodeStepExpectations(
    _ fields: [String: JSONValue], board: Board, into expectation: inout ScenarioExpectation
  ) throws(ScenarioError) {
    if let list = present(fields, "targets") {
      expectation.targets = try array(list, at: "expect.targets").enumerated().map {
        offset, value throws(ScenarioError) -> TargetID? in
        if value == .null { return nil }
        let id = try string(value, at: "expect.targets\(position(offset))")
        guard board.target(id) != nil else {
          throw noTarget(id, on: board, at: "expect.targets\(position(offset))")
        }
        return id
      }
    }
    if let list = present(fields, "indexes") {
      expectation.indexes = try array(list, at: "expect.indexes").enumerated().map {
        offset, value throws(ScenarioError) -> Int? in
        value == .null ? nil : try integer(value, at: "expect.indexes\(position(offset))")
      }
    }
    if let list = present(fields, "printed") {
      expectation.printed = try array(list, at: "expect.printed").enumerated().map {
        offset, value throws(ScenarioError) in try string(value, at: "expect.printed\(position(offset))")
      }
    }
    if let list = present(fields, "refused") {
      expectation.refused = try array(list, at: "expect.refused").enumerated().map {
        offset, value throws(ScenarioError) in try string(value, at: "expect.refused\(position(offset))")
      }
    }
  }
}

extension ScenarioDecoder {
  /// `no target 'dya-13' on the board; did you mean day-13?`
  package static func noTarget(_ id: String, on board: Board) -> String {
    "no target '\(id.capped(.name))' on the board" + suggestion(for: id, among: board.targets.map(\.id))
  }

  /// `no item 'stnadup' on the board; did you mean standup?`
  static func noItem(_ id: String, on board: Board) -> String {
    "no item '\(id.capped(.name))' on the board" + suggestion(for: id, among: board.targets.flatMap(\.items))
  }

  private static func suggestion(for id: String, among ids: [String]) -> String {
    DidYouMean.suggestion(for: id, among: ids).map { "; did you mean \($0)?" } ?? ""
  }
}
