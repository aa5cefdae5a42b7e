import Foundation
import Testing

@Suite("--version and negative numbers")
struct CommandLineOptionTests {
  static let scenario = "rules/calendar/move-to-empty-day.scenario.json"

  @Test("--version prints the version, which the CHANGELOG names, and exits 0")
  func version() throws {
    let result = try DropRulesBinary.run(["--version"])
    #expect(result.status == 0)
    let version = result.stdout.trimmingCharacters(in: .newlines)
    #expect(version.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?/) != nil, "\(result.stdout)")
    let changelog = try String(
      contentsOf: DropRulesBinary.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    #expect(changelog.contains(version), "CHANGELOG.md does not name version \(version)")
  }

  @Test(
    "a negative number is refused with the option's range and the value, written either way",
    arguments: [
      (["bench", scenario, "--iterations", "-5"], "--iterations must be between 1 and 10000000, got -5"),
      (["bench", scenario, "--iterations=-5"], "--iterations must be between 1 and 10000000, got -5"),
      (["run", scenario, "--max-time", "-1"], "--max-time must be between 0 (no deadline) and 3600000"),
      (
        ["run", scenario, "--max-instructions", "-7"], "--max-instructions must be between 1 and 1000000000000, got -7"
      ),
      (["test", "--max-memory", "-1", "rules/calendar"], "got -1"),
    ])
  func negative(arguments: [String], message: String) throws {
    let result = try DropRulesBinary.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("Missing value"))
  }

  @Test("a value that is no number is still refused as one")
  func notANumber() throws {
    let result = try DropRulesBinary.run(["bench", Self.scenario, "--iterations", "many"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("'many'"), "\(result.stderr)")
  }
}
