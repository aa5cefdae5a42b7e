import DropRules
import DropRulesTools
import Foundation

/// Writes a fuzz finding as a scenario folder `droprules run` replays: the scenario file
/// and copies of the rule files (with the modules beside them), since a scenario loads
/// rules from its own folder only.
struct FuzzScenarioWriter {
  let scenario: Scenario
  let extraRules: [String]

  /// Writes `finding` into a new folder under `directory`; returns the scenario's path.
  func write(_ finding: Fuzzer.Finding, seed: UInt64, into directory: String) throws -> String {
    let manager = FileManager.default
    let base = ((scenario.file ?? scenario.name) as NSString).lastPathComponent
      .replacingOccurrences(of: ".scenario.json", with: "")
    let slug = finding.failure.property.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
    var folder = (directory as NSString).appendingPathComponent("\(base)-\(String(slug))-seed-\(seed)")
    var suffix = 1
    while manager.fileExists(atPath: folder) {
      suffix += 1
      folder = (directory as NSString).appendingPathComponent("\(base)-\(String(slug))-seed-\(seed)-\(suffix)")
    }
    try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // Each rule file and the Lua files beside it (the modules it may require), by name.
    var names: [String] = []
    var copied: Set<String> = []
    for path in scenario.rules + extraRules {
      let source = (path as NSString).deletingLastPathComponent
      let siblings = (try? manager.contentsOfDirectory(atPath: source.isEmpty ? "." : source)) ?? []
      for name in siblings where name.hasSuffix(".lua") && !name.hasSuffix("_test.lua") && !copied.contains(name) {
        copied.insert(name)
        try manager.copyItem(
          atPath: (source as NSString).appendingPathComponent(name),
          toPath: (folder as NSString).appendingPathComponent(name))
      }
      let name = (path as NSString).lastPathComponent
      if !names.contains(name) { names.append(name) }
    }
    let name =
      "fuzz: \(finding.failure.property): \(finding.failure.detail) (seed \(seed), drag \(finding.drag), shrunk from "
      + "\(finding.original.steps.count) steps to \(finding.shrunk.steps.count))"
    let json = ScenarioWriter.json(
      name: name, rules: names, types: scenario.types, board: finding.board, drag: finding.shrunk.request,
      steps: finding.shrunk.steps)
    let file = (folder as NSString).appendingPathComponent("failure.scenario.json")
    try Data((json.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: file))
    return file
  }
}
