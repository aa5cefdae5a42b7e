import DropRulesTestSupport
import Foundation
import Testing

@Suite("long traces")
struct LongTraceCommandTests {
  /// A hang guard, not a benchmark: JSON strings were appended through a view that grew
  /// the document to the exact size each time, so 3,000 steps took 42 s and 10,000 would
  /// take minutes. Written in linear time, 10,000 steps take about a second.
  @Test("a trace of 10,000 steps is written as JSON and as HTML, each within a minute")
  func longTraceOutput() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "rules.lua", "return { box = { dropUpdated = function() print('over') return 'move' end } }")
    let steps = (0..<10_000).map { #"{"at": [\#($0 % 90 + 5), 5]}"# }.joined(separator: ", ")
    try scratch.write(
      "long.scenario.json",
      """
      {"rules": ["rules.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 10]}]},
       "drag": {"items": [{"id": "x", "representations": [["public.plain-text", "x"]]}]},
       "steps": [\(steps), "cancel"]}
      """)
    for format in ["json", "html"] {
      let started = Date()
      let result = try DropRulesBinary.run(["run", "--format", format, "long.scenario.json"], in: scratch.url)
      #expect(result.status == 0, "\(format): \(result.stderr)")
      #expect(result.stdout.count > 1_000_000, "\(format)")
      #expect(Date().timeIntervalSince(started) < 60, "\(format)")
    }
  }
}
