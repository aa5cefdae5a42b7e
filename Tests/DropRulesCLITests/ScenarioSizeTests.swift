import DropRulesTestSupport
import Foundation
import Testing

@Suite("the scenario size limit")
struct ScenarioSizeTests {
  @Test("a scenario over --max-scenario-bytes is refused, naming the flag; raised, it runs; out of range exits 64")
  func limit() throws {
    let scenario = "rules/kanban/reorder-columns.scenario.json"
    let size = try #require(
      try FileManager.default.attributesOfItem(
        atPath: DropRulesBinary.packageRoot.appendingPathComponent(scenario).path)[.size] as? Int)
    let small = try DropRulesBinary.run(["run", scenario, "--max-scenario-bytes", "1024"])
    #expect(small.status == 2)
    #expect(
      small.stderr
        == "error: \(scenario): the file is \(size) bytes; scenarios are limited to 1024 bytes (raise it with "
        + "--max-scenario-bytes)\n")
    let enough = try DropRulesBinary.run(["run", scenario, "--max-scenario-bytes", "\(size)"])
    #expect(enough.status == 0)
    for command in [["test", scenario], ["bench", scenario], ["fuzz", "--scenario", scenario]] {
      let refused = try DropRulesBinary.run(command + ["--max-scenario-bytes", "1024"])
      // test reports it as an errored file on stdout; the others on stderr.
      #expect(
        (refused.stdout + refused.stderr).contains("scenarios are limited to 1024 bytes"),
        "\(command): \(refused.stdout)\(refused.stderr)")
      #expect(refused.status == 2)
    }
    let tiny = try DropRulesBinary.run(["run", scenario, "--max-scenario-bytes", "10"])
    #expect(tiny.status == 64)
    #expect(tiny.stderr.contains("--max-scenario-bytes must be between 1024 and 4294967296 (4 GiB), got 10"))
  }

  @Test("a parallel test run holds every file to --max-scenario-bytes, as one thread does")
  func parallelRunsHoldTheLimit() throws {
    let scenarios = ["rules/kanban/reorder-columns.scenario.json", "rules/outline/indent-under-errands.scenario.json"]
    for jobs in ["1", "2"] {
      let refused = try DropRulesBinary.run(["test"] + scenarios + ["--max-scenario-bytes", "1024", "--jobs", jobs])
      #expect(refused.status == 2, "--jobs \(jobs): \(refused.stdout)")
      #expect(
        refused.stdout.components(separatedBy: "scenarios are limited to 1024 bytes").count == 3,
        "--jobs \(jobs): \(refused.stdout)")
    }
  }
}
