import DropRulesTestSupport
import Foundation
import Testing

@Suite("droprules run --format html")
struct HTMLReplayCommandTests {
  @Test("writes one HTML page for several scenarios, with each one's trace in its data")
  func severalScenarios() throws {
    let result = try DropRulesBinary.run([
      "run", "rules/calendar/move-to-empty-day.scenario.json", "rules/kanban/locked-column.scenario.json",
      "--format", "html",
    ])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("<!doctype html>"))
    #expect(result.stdout.hasSuffix("</html>\n"))
    #expect(result.stdout.contains("\"standup-copy1\""))
    #expect(result.stdout.contains("rules/kanban/locked-column.scenario.json"))
    #expect(result.stderr.isEmpty)
  }

  @Test("a failed expectation still writes the page, and exits 1")
  func failedExpectation() throws {
    let scratch = try TemporaryDirectory()
    let source = DropRulesBinary.packageRoot.appendingPathComponent("rules/calendar")
    try FileManager.default.copyItem(
      at: source.appendingPathComponent("calendar.lua"), to: scratch.url.appendingPathComponent("calendar.lua"))
    let scenario = try String(
      contentsOf: source.appendingPathComponent("move-to-empty-day.scenario.json"), encoding: .utf8)
    let wrong = scenario.replacingOccurrences(of: "\"outcome\": \"performed\"", with: "\"outcome\": \"cancelled\"")
    #expect(wrong != scenario)
    try wrong.write(to: scratch.url.appendingPathComponent("wrong.scenario.json"), atomically: true, encoding: .utf8)
    let result = try DropRulesBinary.run(["run", "wrong.scenario.json", "--format", "html"], in: scratch.url)
    #expect(result.status == 1)
    #expect(result.stdout.contains("outcome: expected cancelled, got performed"))
  }

  @Test("bench has no html format")
  func benchRefusesHTML() throws {
    let result = try DropRulesBinary.run([
      "bench", "rules/calendar/move-to-empty-day.scenario.json", "--iterations", "1", "--format", "html",
    ])
    #expect(result.status == 64)
    #expect(result.stderr.contains("html"))
  }
}
