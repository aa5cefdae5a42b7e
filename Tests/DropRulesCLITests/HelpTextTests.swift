import Foundation
import Testing

/// The whole `--help` text of the root command and of each subcommand, against the copy
/// kept in `Tests/DropRulesCLITests/Help/`: a lost abstract, a renamed option or a
/// changed default shows as a difference. After a change meant to show there, rewrite
/// the copies with `DROPRULES_UPDATE_HELP=1 swift test --filter HelpTextTests`.
@Suite("Help texts")
struct HelpTextTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")

  /// The subcommands the root's help lists, in its order.
  static func subcommands() throws -> [String] {
    let root = try DropRulesBinary.run(["--help"]).stdout
    let listed = root.components(separatedBy: "SUBCOMMANDS:").dropFirst().first ?? ""
    return listed.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
      return line.split(separator: " ").first.map(String.init)
    }.filter { $0 != "See" }
  }

  @Test("the root lists every subcommand, and every help text is the one kept")
  func helpTexts() throws {
    let names = try Self.subcommands()
    #expect(names.count >= 11, "\(names)")
    let update = ProcessInfo.processInfo.environment["DROPRULES_UPDATE_HELP"] == "1"
    let kept = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path))
    for name in ["droprules"] + names {
      let result = try DropRulesBinary.run(name == "droprules" ? ["--help"] : [name, "--help"])
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let file = Self.folder.appendingPathComponent("\(name).txt")
      if update {
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        continue
      }
      let expected = try? String(contentsOf: file, encoding: .utf8)
      #expect(
        result.stdout == expected,
        "droprules \(name) --help differs from Help/\(name).txt; if meant, run DROPRULES_UPDATE_HELP=1 swift test --filter HelpTextTests"
      )
    }
    // A kept text whose subcommand is gone is stale.
    let stale = kept.subtracting((["droprules"] + names).map { "\($0).txt" })
    #expect(stale.isEmpty, "help texts of no subcommand: \(stale.sorted())")
  }
}
