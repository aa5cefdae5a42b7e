import Foundation

/// Line coverage of rule files, fed by the runtime's line hook.
public final class CoverageRecorder {
  private var hits: [String: Set<Int>] = [:]

  public init() {}

  func record(file: String, line: Int) {
    hits[file, default: []].insert(line)
  }

  /// Coverage of one file.
  public struct FileCoverage: Sendable {
    public var file: String
    public var executableLines: Int
    public var coveredLines: Int
    public var uncovered: [Int]

    public var percent: Double {
      executableLines == 0 ? 100 : Double(coveredLines) * 100 / Double(executableLines)
    }
  }

  /// Coverage per rule file that ran, test files excluded, sorted by path.
  ///
  /// Executable lines are those with code on them (not blank, not comments, not a lone
  /// `end`, `else` or closing bracket), plus every line the hook saw run.
  public func report() -> [FileCoverage] {
    hits.keys.filter { !$0.hasSuffix("_test.lua") }.sorted().map { file in
      let hit = hits[file] ?? []
      let source = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      let executable = Self.executableLines(in: source).union(hit)
      let uncovered = executable.subtracting(hit).sorted()
      return FileCoverage(
        file: file, executableLines: executable.count, coveredLines: executable.count - uncovered.count,
        uncovered: uncovered)
    }
  }

  static func executableLines(in source: String) -> Set<Int> {
    var result: Set<Int> = []
    var inLongComment = false
    let closers: Set<String> = ["end", "end)", "end,", "end)", "}", "},", "})", ")", "else", "]]", "end})", "})"]
    for (offset, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = rawLine.trimmingCharacters(in: .whitespaces)
      if inLongComment {
        if line.contains("]]") { inLongComment = false }
        continue
      }
      if line.hasPrefix("--[[") || line.hasPrefix("--[=[") {
        inLongComment = !line.contains("]]")
        continue
      }
      if let comment = line.range(of: "--") {
        line = String(line[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces)
      }
      if line.isEmpty || closers.contains(line) { continue }
      result.insert(offset + 1)
    }
    return result
  }
}
