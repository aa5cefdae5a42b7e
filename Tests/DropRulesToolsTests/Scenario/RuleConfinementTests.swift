import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

/// A scenario names rule files in its own folder tree; a path that
/// leaves it (`..`, an absolute path, a link) is refused before the file is read.
@Suite("Rule files a scenario names stay in its folder")
struct RuleConfinementTests {
  let directory: TemporaryDirectory

  /// `project/` holds the scenarios; `secret.lua` beside it is a file with a
  /// syntax error whose text a load error would quote.
  init() throws {
    directory = try TemporaryDirectory()
    try directory.write("secret.lua", "return 1 SECRET_CONTENT")
    try directory.write("project/box.lua", "return { box = { performDrop = function() return true end } }")
    try directory.write("project/sub/nested.lua", "return { crate = {} }")
  }

  func scenario(rules: String) throws -> Scenario {
    let path = try directory.write(
      "project/s.scenario.json",
      #"{"rules": [\#(rules)], "board": {"targets": []}, "drag": {"items": [{"id": "x"}]}}"#)
    return try ScenarioDecoder.load(path: path)
  }

  func link(_ name: String, to target: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: (directory.path as NSString).appendingPathComponent(name), withDestinationPath: target)
  }

  @Test(
    "a path out of the scenario's folder is refused, naming the scenario and the path, quoting nothing",
    arguments: [#""../secret.lua""#, #""sub/../../secret.lua""#, "absolute", #""escape.lua""#])
  func refused(_ rules: String) throws {
    try link("project/escape.lua", to: (directory.path as NSString).appendingPathComponent("secret.lua"))
    let named = rules == "absolute" ? #""\#(directory.path)/secret.lua""# : rules
    let scenario = try scenario(rules: named)
    let error = #expect(throws: (any Error).self) { try ScenarioRunner().run(scenario) }
    let message = "\(error.map { "\($0)" } ?? "")"
    #expect(message.contains("s.scenario.json"), "\(message)")
    #expect(message.contains("outside"), "\(message)")
    #expect(message.contains(named.trimmingCharacters(in: ["\""])), "\(message)")
    #expect(!message.contains("SECRET"), "\(message)")
  }

  @Test("files in the folder and below, and links that stay inside, load")
  func allowed() throws {
    try link("project/alias.lua", to: "sub/nested.lua")
    let result = try ScenarioRunner().run(scenario(rules: #""box.lua", "sub/nested.lua""#))
    #expect(result.diagnostics.isEmpty)
    _ = try ScenarioRunner().run(scenario(rules: #""alias.lua""#))
  }
}

extension RuleConfinementTests {
  @Test(
    "a trusted root (ScenarioRunner.trustedRuleRoots) lets a scenario name files under it; a file it names loads once")
  func trustedRoots() throws {
    try directory.write("outside/crate.lua", "return { crate = {} }")
    let scenario = try scenario(rules: #""../outside/crate.lua""#)
    let outside = (directory.path as NSString).appendingPathComponent("outside")
    let refusal = #expect(throws: ScenarioRunError.self) { try ScenarioRunner().run(scenario) }
    guard case .refusedRuleFile(let error) = refusal else {
      Issue.record("expected a refusal, got \(String(describing: refusal))")
      return
    }
    #expect(error.file == scenario.file)
    // The library names its setting; the command line names its flag (--rules).
    #expect(error.reason.hasSuffix("or under a path given with ScenarioRunner.trustedRuleRoots"), "\(error.reason)")
    #expect(!error.reason.contains("--"))
    let runner = ScenarioRunner(trustedRuleRoots: [outside])
    _ = try runner.run(scenario, extraRules: [(outside as NSString).appendingPathComponent("crate.lua")])
  }

  @Test(
    "the check is of the file once open: a link that leads out when it is opened is refused, whatever its path said")
  func checkedOnceOpen() throws {
    let project = try #require(RealPath.of(directory.url.appendingPathComponent("project").path))
    let link = directory.url.appendingPathComponent("project/swapped.lua").path
    // As if swapped after a check of its path: it leads outside when opened.
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: directory.url.appendingPathComponent("secret.lua").path)
    #expect(FileContents.bytes(atPath: link, maximumBytes: 100, confinedTo: [project]).failureReason == "outside")
    #expect(FileContents.bytes(atPath: link, maximumBytes: 100, confinedTo: nil).failureReason == nil)
    let host = try RuleHost()
    host.ruleFileRoots = [project]
    let problems = host.loadRulesCollectingProblems(atPaths: [link])
    #expect(problems.map(\.message).contains { $0.contains("outside the folders rule files may come from") })
    #expect(!problems.map(\.message).joined().contains("SECRET_CONTENT"))
    // A board file too.
    let boardLink = directory.url.appendingPathComponent("project/swapped.board.json").path
    try "{\"targets\": []}".write(
      toFile: directory.url.appendingPathComponent("outside.board.json").path, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: boardLink, withDestinationPath: directory.url.appendingPathComponent("outside.board.json").path)
    #expect(
      FileContents.bytes(atPath: boardLink, maximumBytes: 100, confinedTo: [project]).failureReason == "outside")
  }
}

extension Result where Failure == FileContents.ReadFailure {
  /// `outside`, `unreadable`, or nil for a read that succeeded.
  fileprivate var failureReason: String? {
    switch self {
    case .success: nil
    case .failure(.unreadable): "unreadable"
    case .failure(.outside): "outside"
    }
  }
}
