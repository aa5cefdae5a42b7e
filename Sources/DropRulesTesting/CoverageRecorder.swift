import DropRules
import DropRulesTools
import Foundation

/// Line coverage of rule files, fed by the runtime's line hook.
public final class CoverageRecorder {
  /// Per file, how many times each line ran.
  private(set) var hits: [String: [Int: Int]] = [:]

  package init() {}

  func record(file: String, line: Int) {
    hits[file, default: [:]][line, default: 0] += 1
  }

  /// Adds lines another recorder saw run (a test file run on another thread).
  func record(hits other: [String: [Int: Int]]) {
    hits.merge(other) { $0.merging($1, uniquingKeysWith: +) }
  }

  /// Coverage of one file.
  public struct FileCoverage: Sendable {
    /// The rule file's path.
    public var file: String
    /// Lines with code on them, and lines the hook saw run.
    public var executableLines: Int
    /// Executable lines that ran at least once.
    public var coveredLines: Int
    /// The executable lines that never ran, in ascending order.
    public var uncovered: [Int]
    /// How many times each executable line ran, 0 for an uncovered one, by line.
    public var lineHits: [Int: Int]

    package init(file: String, executableLines: Int, coveredLines: Int, uncovered: [Int], lineHits: [Int: Int] = [:]) {
      self.file = file
      self.executableLines = executableLines
      self.coveredLines = coveredLines
      self.uncovered = uncovered
      self.lineHits = lineHits
    }

    /// Covered lines over executable lines, in percent; 100 for a file with none.
    public var percent: Double {
      executableLines == 0 ? 100 : Double(coveredLines) * 100 / Double(executableLines)
    }
  }

  /// Coverage per rule file that ran, test files excluded, sorted by path.
  ///
  /// Executable lines are those with code on them, plus every line the hook saw run.
  /// Not counted: blank lines, comments, a lone `end`, `else` or bracket, and function
  /// headers, since Lua reports a function definition at its `end` line, never at its
  /// header.
  public func report() -> [FileCoverage] {
    hits.keys.filter { !FileDiscovery.isLuaTestFile($0) }.sorted().map { file in
      let hit = hits[file] ?? [:]
      let source = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      let executable = Self.executableLines(in: source).union(hit.keys)
      let uncovered = executable.subtracting(hit.keys).sorted()
      var lineHits = hit
      for line in uncovered { lineHits[line] = 0 }
      return FileCoverage(
        file: file, executableLines: executable.count, coveredLines: executable.count - uncovered.count,
        uncovered: uncovered, lineHits: lineHits)
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
      if line.isEmpty || closers.contains(line) || line == "{" || isFunctionHeader(line) { continue }
      result.insert(offset + 1)
    }
    return result
  }

  /// `local function name(a, b)`, `function M.name(a)`, `key = function(a)` or
  /// `return function(a)` with its body on the lines below.
  static func isFunctionHeader(_ line: String) -> Bool {
    guard line.hasSuffix(")"), let keyword = line.range(of: "function") else { return false }
    let before = line[..<keyword.lowerBound].trimmingCharacters(in: .whitespaces)
    guard before.isEmpty || before == "local" || before == "return" || before.hasSuffix("=") else { return false }
    let rest = line[keyword.upperBound...]
    guard let open = rest.firstIndex(of: "("), rest.firstIndex(of: ")") == rest.index(before: rest.endIndex) else {
      return false
    }
    let name = rest[..<open].trimmingCharacters(in: .whitespaces)
    return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == ":" }
  }
}
