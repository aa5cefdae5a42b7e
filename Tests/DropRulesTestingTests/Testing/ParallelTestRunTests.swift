import DropRules
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// Test files run on several threads give what one thread gives, in the same order.
@Suite("Test files on several threads")
struct ParallelTestRunTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// The bundled tests plus a failing file, a file that does not load and a hostile one.
  static func files(in directory: TemporaryDirectory) throws -> [String] {
    try directory.write("box.lua", #"return { box = { dropUpdated = function() return "copy" end } }"#)
    try directory.write(
      "box_test.lua",
      """
      local function sim()
        return scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end
      test("passes", function() expect(sim():drag({ { id = "x" } }):over("a")):toBe("copy") end)
      test("fails", function() expect(sim():drag({ { id = "x" } }):over("a")):toBe("move") end)
      test("spins", function() while true do end end)
      test("grows", function() local t = {} while true do t[#t + 1] = ("x"):rep(1000) end end)
      """)
    try directory.write("broken_test.lua", "test('x', function() end\n")
    let bundled = RuleTestRunner.discover([packageRoot + "/rules"]).files
    return bundled + RuleTestRunner.discover([directory.path]).files
  }

  static func summary(_ results: [TestCaseResult]) -> [String] {
    results.map { "\($0.file) | \($0.name) | \($0.status) | \($0.failures.joined(separator: " / "))" }
  }

  @Test("2, 3 and 64 jobs give the results, coverage and loaded rule files of one job, in order")
  func sameAsOneJob() throws {
    let directory = try TemporaryDirectory()
    let files = try Self.files(in: directory)
    let limits = LuaLimits(maxInstructions: 1_000_000, maxMemory: 16 << 20, maxTime: .seconds(60))
    let serial = RuleTestRunner(limits: limits, collectCoverage: true)
    let expected = serial.run(files: files)
    #expect(expected.count > 80)
    #expect(expected.contains { $0.status == .loadError } && expected.contains { $0.status == .failed })
    for jobs in [2, 3, 64] {
      let parallel = RuleTestRunner(limits: limits, collectCoverage: true)
      let results = parallel.run(files: files, jobs: jobs)
      #expect(Self.summary(results) == Self.summary(expected), "jobs \(jobs)")
      // The lines run, not how often: a rule's `pairs` order follows its Lua state's hash
      // seed, so a loop over a table may run more or fewer times in any two runs.
      #expect(
        parallel.coverage?.hits.mapValues { Set($0.keys) } == serial.coverage?.hits.mapValues { Set($0.keys) },
        "jobs \(jobs)")
      #expect(parallel.ruleFilesLoaded == serial.ruleFilesLoaded, "jobs \(jobs)")
    }
  }

  @Test("the filter applies on every thread, and odd job counts are clamped")
  func filterAndClamping() throws {
    let directory = try TemporaryDirectory()
    let files = try Self.files(in: directory)
    // A file that does not load is reported whatever the filter: it may hold its tests.
    let broken = directory.path + "/broken_test.lua"
    let filtered = RuleTestRunner(filter: "calendar").run(files: files, jobs: 4)
    #expect(!filtered.isEmpty)
    #expect(filtered.allSatisfy { "\($0.file): \($0.name)".contains("calendar") || $0.file == broken })
    #expect(filtered.filter { $0.status == .loadError }.map(\.file) == [broken])
    for jobs in [Int.min, -1, 0, 1, Int.max] {
      let results = RuleTestRunner(filter: directory.path + "/box_test").run(files: files, jobs: jobs)
      #expect(results.map(\.name) == ["passes", "fails", "spins", "grows", broken], "jobs \(jobs)")
    }
    #expect(RuleTestRunner().run(files: [], jobs: 8).isEmpty)
  }

  @Test("a shuffled run and --filter-out give on several threads what they give on one")
  func orderAndExclusionsOnEveryThread() throws {
    let directory = try TemporaryDirectory()
    let files = try Self.files(in: directory)
    let limits = LuaLimits(maxTime: .seconds(60))
    func runner(shuffled: Bool = true) -> RuleTestRunner {
      let runner = RuleTestRunner(limits: limits)
      runner.order = shuffled ? TestOrder(seed: 7) : nil
      runner.excluded = ["calendar"]
      return runner
    }
    let serial = runner().run(files: files)
    #expect(!serial.isEmpty && serial.allSatisfy { !"\($0.file): \($0.name)".contains("calendar") })
    #expect(Self.summary(serial) != Self.summary(runner(shuffled: false).run(files: files)))
    #expect(Self.summary(runner().run(files: files, jobs: 3)) == Self.summary(serial))
  }
}
