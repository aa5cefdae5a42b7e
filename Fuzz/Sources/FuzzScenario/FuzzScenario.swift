// libFuzzer target: scenario JSON through the decoder, then a replay of what decodes.
//
// Any thrown error is an answer; a crash, a trap, a hang or memory without bound is a
// finding. Rule paths resolve against the bundled `rules/` folder, so a seed such as
// `"rules": ["calendar/calendar.lua"]` replays against real rules; paths that leave that
// folder are dropped (a scenario may name any file, `/dev/zero` among them, and reading
// it is the scenario author's choice, not a bug).
import DropRules
import DropRulesTools
import Foundation

/// The repository's `rules/` folder: `DROPRULES_RULES`, or found from this file's path.
let rulesDirectory: String = {
  if let path = ProcessInfo.processInfo.environment["DROPRULES_RULES"] { return path }
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<4 { url.deleteLastPathComponent() }
  return url.appendingPathComponent("rules").standardizedFileURL.path
}()

/// Small limits, so that each input's work stays bounded.
let limits = LuaLimits(maxInstructions: 100_000, maxMemory: 16 << 20, maxTime: .milliseconds(200))

/// At most this many rule files per scenario (each one is parsed and run).
let maximumRuleFiles = 8

/// Whether `path` is a file inside the bundled rules folder.
func isBundledRule(_ path: String) -> Bool {
  let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
  return standardized.hasPrefix(rulesDirectory + "/") && !path.split(separator: "/").contains("..")
}

/// One fuzz input: decodes it as a scenario and replays it when it decodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  guard let json = try? JSONValue.parse(bytes) else { return 0 }
  // The Lua-test form of the decoder: 1-based error paths, no drag required.
  do {
    _ = try ScenarioDecoder(file: "fuzz_test.lua", baseDirectory: rulesDirectory, firstIndex: 1)
      .decode(json, requiresDrag: false)
  } catch {
    _ = error.description
  }
  var scenario: Scenario
  do {
    scenario = try ScenarioDecoder(file: "fuzz.scenario.json", baseDirectory: rulesDirectory).decode(json)
  } catch {
    _ = error.description
    return 0
  }
  scenario.rules = Array(scenario.rules.filter(isBundledRule).prefix(maximumRuleFiles))
  let result: ScenarioResult
  do {
    result = try ScenarioRunner(limits: limits).run(scenario)
  } catch {
    _ = error.description
    return 0
  }
  // The reports must hold whatever the replay produced; the JSON one must parse.
  _ = TraceReport().text(result)
  let report = TraceReport().json([result])
  guard (try? JSONValue.parse(Data(report.utf8))) != nil else {
    fatalError("TraceReport.json produced text that is not JSON: \(report.prefix(400))")
  }
  _ = result.passed
  return 0
}
