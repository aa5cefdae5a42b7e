import DropRulesTestSupport
import Foundation
import Testing

/// `run` and `test` refuse rule files a scenario or test file names outside its folder,
/// unless the user named the place with `--rules`; no byte of a refused file is shown.
@Suite("droprules keeps the rule files scenarios name in their folder")
struct RuleConfinementCommandTests {
  /// `project/` holds the scenarios; beside it, `shared/` holds a rule file and
  /// `private/` a file whose text a load error would quote.
  static func layout() throws -> TemporaryDirectory {
    let scratch = try TemporaryDirectory()
    try scratch.write("private/secret.lua", "return 1 SECRET_CONTENT")
    try scratch.write(
      "shared/crate.lua",
      #"return { crate = { dropUpdated = function() return "copy" end, performDrop = function() return true end } }"#)
    try scratch.write(
      "project/out.scenario.json",
      """
      {"name": "reaches out", "rules": ["../private/secret.lua"], "board": {"targets": []},
       "drag": {"items": [{"id": "x"}]}, "expect": {"outcome": "cancelled"}}
      """)
    try scratch.write(
      "project/crate.scenario.json",
      """
      {"name": "a shared rule", "rules": ["../shared/crate.lua"],
       "board": {"targets": [{"id": "c", "type": "crate", "frame": [0, 0, 10, 10]}]},
       "drag": {"items": [{"id": "x"}]}, "steps": [{"over": "c"}], "expect": {"proposals": ["copy"]}}
      """)
    return scratch
  }

  @Test("run refuses with exit 2, naming the scenario and the path, quoting nothing of the file")
  func runRefuses() throws {
    let scratch = try Self.layout()
    let result = try DropRulesBinary.run(["run", "project/out.scenario.json"], in: scratch.url)
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix(
        "error: project/out.scenario.json: rule file 'project/../private/secret.lua' (it leads to "),
      "\(result.stderr)")
    #expect(result.stderr.contains("is outside"))
    // The library names ScenarioRunner.trustedRuleRoots; the command names its flag.
    #expect(result.stderr.hasSuffix("or under a path given with --rules\n"), "\(result.stderr)")
    #expect(!result.stderr.contains("SECRET") && !result.stdout.contains("SECRET"))
  }

  @Test("run --rules trusts that path: the scenario may name files there, and each loads once")
  func runTrustsRulesPaths() throws {
    let scratch = try Self.layout()
    let refused = try DropRulesBinary.run(["run", "project/crate.scenario.json"], in: scratch.url)
    #expect(refused.status == 2)
    for trusted in ["shared", "shared/crate.lua"] {
      let result = try DropRulesBinary.run(["run", "project/crate.scenario.json", "--rules", trusted], in: scratch.url)
      #expect(result.status == 0, "\(trusted): \(result.stderr)")
    }
  }

  @Test("test reports the refusal as a load error of the scenario, quoting nothing of the file")
  func testRefuses() throws {
    let scratch = try Self.layout()
    let result = try DropRulesBinary.run(["test", "project/out.scenario.json"], in: scratch.url)
    #expect(result.status == 2)
    #expect(result.stdout.contains("  ERROR reaches out"))
    #expect(result.stdout.contains("project/out.scenario.json: rule file 'project/../private/secret.lua'"))
    #expect(result.stdout.contains("or under a path given with --rules"), "\(result.stdout)")
    #expect(!result.stdout.contains("SECRET"))
  }

  @Test("every bundled scenario still runs from the package root and from its own folder")
  func bundledScenarios() throws {
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: DropRulesBinary.packageRoot.appendingPathComponent("rules").path)
    var count = 0
    for folder in folders.sorted() {
      let directory = DropRulesBinary.packageRoot.appendingPathComponent("rules/\(folder)")
      let scenarios = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasSuffix(".scenario.json") }
      for scenario in scenarios {
        count += 1
        let fromRoot = try DropRulesBinary.run(["run", "rules/\(folder)/\(scenario)"])
        #expect(fromRoot.status == 0, "\(scenario): \(fromRoot.stderr)")
        let fromFolder = try DropRulesBinary.run(["run", scenario], in: directory)
        #expect(fromFolder.status == 0, "\(scenario): \(fromFolder.stderr)")
      }
    }
    #expect(count >= 11)
  }
}
