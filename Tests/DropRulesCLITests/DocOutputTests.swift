import Foundation
import Testing

/// What the docs show a command printing, against a real run. A fenced block right after
/// `<!-- output-of: droprules ARGS -->` in README.md or docs/*.md is an excerpt of what
/// `droprules ARGS` prints in the package root: its lines (a `$ ` line, the command as
/// typed, aside) must appear in the output, in order. Times and rates, which differ from
/// machine to machine, are compared by their shape.
@Suite("Docs show what commands print")
struct DocOutputTests {
  struct Block: Sendable, CustomTestStringConvertible {
    var file: String
    var line: Int
    var arguments: [String]
    var lines: [String]
    var testDescription: String { "\(file):\(line): droprules \(arguments.joined(separator: " "))" }
  }

  static let marker = "<!-- output-of: droprules "

  /// Every marked block of the README and the docs.
  static func blocks() throws -> [Block] {
    let root = DropRulesBinary.packageRoot
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
      .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    var found: [Block] = []
    for file in ["README.md"] + docs {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      let lines = text.components(separatedBy: "\n")
      for (offset, line) in lines.enumerated() {
        // A block inside a list item is indented as the item is: its lines lose the indent.
        let indent = line.prefix { $0 == " " }.count
        let trimmed = line.dropFirst(indent)
        guard trimmed.hasPrefix(marker) else { continue }
        let command = trimmed.dropFirst(marker.count).replacingOccurrences(of: "-->", with: "")
        var body: [String] = []
        var index = offset + 1
        guard index < lines.count, lines[index].dropFirst(indent).hasPrefix("```") else { continue }
        index += 1
        while index < lines.count, !lines[index].dropFirst(indent).hasPrefix("```") {
          let text = String(lines[index].dropFirst(indent))
          if !text.hasPrefix("$ "), !text.isEmpty { body.append(text) }
          index += 1
        }
        found.append(
          Block(
            file: file, line: offset + 1, arguments: command.split(separator: " ").map(String.init), lines: body))
      }
    }
    return found
  }

  /// The text with times and rates written as their shape: `1.3 s`, `7720 drags/s`.
  static func shape(_ text: String) -> String {
    var result = text
    for (pattern, shape) in [
      (#"[0-9]+(\.[0-9]+)? s\b"#, "N s"), (#"[0-9]+ drags/s"#, "N drags/s"), (#"[0-9]+(\.[0-9]+)? ms\b"#, "N ms"),
    ] {
      result = result.replacingOccurrences(of: pattern, with: shape, options: .regularExpression)
    }
    return result
  }

  @Test("there are marked blocks to check")
  func marked() throws {
    #expect(try Self.blocks().count >= 2)
  }

  @Test("each marked block is an excerpt of what its command prints", arguments: try blocks())
  func excerpt(_ block: Block) throws {
    let result = try DropRulesBinary.run(block.arguments)
    let output = result.stdout.components(separatedBy: "\n").map(Self.shape)
    var next = 0
    for line in block.lines.map(Self.shape) {
      guard let found = output[next...].firstIndex(of: line) else {
        let command = block.arguments.joined(separator: " ")
        let message = "\(block.file):\(block.line): '\(line)' is not in what droprules \(command) prints "
        Issue.record(Comment(rawValue: message + "(after the lines before it):\n" + result.stdout))
        return
      }
      next = found + 1
    }
  }
}
