import DropRules
import DropRulesTesting
import Foundation

/// What `droprules test` costs per test beyond the test's own work: each test runs in a
/// fresh load of its file (a new Lua state, the test API, the file's top level) and each
/// `scenario{}` makes a rule host of its own (a new state, the rule API, the rule file).
/// The tests themselves are small (one scenario, one drag over one target and a drop), so
/// what is measured is that overhead.

/// A rule file of two target types, as small as a real one gets.
let overheadRule = """
  -- Boxes take items unless full; shelves take nothing.
  return {
    box = {
      dropUpdated = function(info, box)
        if box.data.full then return "forbidden" end
        return info.modifiers.option and "copy" or "move"
      end,
      performDrop = function(info, box)
        box:insert(info.items, info.index)
        return true
      end,
    },
    shelf = {
      validateDrop = function() return false end,
    },
  }
  """

/// A test file of `count` small tests of `box.lua`, each with its own scenario and drag.
func overheadTestFile(tests count: Int) -> String {
  var text = """
    local function board()
      return scenario {
        board = { targets = {
          { id = "a", type = "box", frame = { 0, 0, 100, 100 }, items = { { id = "x" } } },
          { id = "b", type = "box", frame = { 100, 0, 100, 100 } },
          { id = "s", type = "shelf", frame = { 200, 0, 100, 100 } },
        } },
      }
    end

    """
  for index in 0..<count {
    text += """

      test("an item moves into box b (\(index))", function()
        local sim = board()
        local drag = sim:drag({ "x" })
        expect(drag:over("b")):toBe("move")
        expect(drag:drop()):toBe("performed")
        expect(sim:items("b")):toEqual({ "x" })
      end)

      """
  }
  return text
}

/// A folder with `box.lua` and `files` test files of `tests` tests each:
/// `box_test.lua` for the first, `box2_test.lua`... (each loading `box.lua`) for the rest.
func makeOverheadSuite(files: Int = 1, tests: Int) throws -> (directory: URL, paths: [String]) {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("droprules-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  try overheadRule.write(to: directory.appendingPathComponent("box.lua"), atomically: true, encoding: .utf8)
  var paths: [String] = []
  for file in 0..<files {
    let name = file == 0 ? "box_test.lua" : "box\(file + 1)_test.lua"
    var text = overheadTestFile(tests: tests)
    // Other test files name the rule file, which the default (`box2.lua`) is not.
    if file > 0 {
      text = text.replacingOccurrences(of: "return scenario {", with: "return scenario { rules = { \"box.lua\" },")
    }
    try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    paths.append(directory.appendingPathComponent(name).path)
  }
  return (directory, paths)
}

/// Runs the suite once; fails loudly if any test did not pass, so a broken benchmark
/// never reports a fast time.
func runSuite(_ paths: [String], jobs: Int = 1) throws -> Int {
  let results = RuleTestRunner().run(files: paths, jobs: jobs)
  guard results.allSatisfy({ $0.status == .passed }) else {
    let failed = results.first { $0.status != .passed }
    throw BenchmarkError("a benchmark test failed: \(failed?.name ?? "") \(failed?.message ?? "")")
  }
  return results.count
}

/// Runs a file of `tests` tests `times` times (for callgrind).
func runTestsRepeatedly(tests: Int, times: Int) throws {
  let suite = try makeOverheadSuite(tests: tests)
  defer { try? FileManager.default.removeItem(at: suite.directory) }
  for _ in 0..<times { _ = try runSuite(suite.paths) }
}

/// Prints the time per test of files of 100 and 5,000 small tests (issue 23 asks for a
/// test in the larger within 2x of one in the smaller), the sizes alternated within each
/// round, and each whole file's time.
func runTestOverheadBenchmark(sizes: [Int] = [100, 5_000], rounds: Int = 7) throws {
  let suites = try sizes.map { try makeOverheadSuite(tests: $0) }
  defer { for suite in suites { try? FileManager.default.removeItem(at: suite.directory) } }
  print(
    "\nper-test overhead of droprules test: a file of N small tests (scenario{}, one drag, a drop),"
      + " median of \(rounds) rounds, sizes alternated")
  for suite in suites { _ = try runSuite(suite.paths) }  // warm up
  var perTest: [[Double]] = Array(repeating: [], count: sizes.count)
  var perFile: [[Double]] = Array(repeating: [], count: sizes.count)
  for round in 0..<rounds {
    let order = round.isMultiple(of: 2) ? Array(sizes.indices) : sizes.indices.reversed()
    for index in order {
      let start = DispatchTime.now().uptimeNanoseconds
      let count = try runSuite(suites[index].paths)
      let nanoseconds = Double(DispatchTime.now().uptimeNanoseconds - start)
      perFile[index].append(nanoseconds / 1e6)
      perTest[index].append(nanoseconds / 1e3 / Double(count))
    }
  }
  for (index, size) in sizes.enumerated() {
    print(
      String(
        format: "  %5d tests in one file: %8.1f ms, %7.1f µs per test", size, median(perFile[index]),
        median(perTest[index])))
  }
  let first = median(perTest.first ?? [])
  print(
    String(
      format: "  ratio, µs per test at %d / at %d: %.2f  (above 1: a test's cost grows with its file)",
      sizes.last ?? 0, sizes.first ?? 0, median(perTest.last ?? []) / (first == 0 ? 1 : first)))
  try runTestSuiteBenchmark(rounds: rounds)
}

/// Prints the time of a suite of 10 files of 100 small tests on one thread and on `jobs`
/// threads (`--jobs`), alternated.
func runTestSuiteBenchmark(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, rounds: Int = 7) throws {
  let suite = try makeOverheadSuite(files: 10, tests: 100)
  defer { try? FileManager.default.removeItem(at: suite.directory) }
  print("\n1,000 small tests in 10 files, median of \(rounds) rounds, job counts alternated")
  _ = try runSuite(suite.paths)  // warm up
  let counts = [1, max(1, jobs)]
  var times: [[Double]] = [[], []]
  for round in 0..<rounds {
    let order = round.isMultiple(of: 2) ? [0, 1] : [1, 0]
    for index in order {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = try runSuite(suite.paths, jobs: counts[index])
      times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
  }
  for (index, count) in counts.enumerated() {
    print(String(format: "  --jobs %d: %7.1f ms", count, median(times[index])))
  }
}
