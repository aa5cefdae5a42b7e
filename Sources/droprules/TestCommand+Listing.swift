import ArgumentParser
import DropRules
import DropRulesModel
import DropRulesTesting

extension TestCommand {
  /// `--list`: the tests a run would run, `file: name` one a line (the text `--filter`
  /// matches), without running them.
  func list(_ runner: RuleTestRunner, files: [String], missing: [String]) throws {
    let (tests, loadErrors) = runner.list(files: files)
    for failure in loadErrors.flatMap(\.failures) { Console.error(failure) }
    let problem = tests.isEmpty && missing.isEmpty && loadErrors.isEmpty ? noTestsFound(files: files) : nil
    switch format {
    case .json:
      var document: [String: JSONValue] = [
        "tests": .array(
          tests.map { test in
            .object([
              "file": .string(test.file), "name": .string(test.name),
              "line": test.line.map { .integer(Int64($0)) } ?? .null,
            ])
          })
      ]
      if let seed = runner.order?.seed { document["seed"] = .integer(Int64(clamping: seed)) }
      if let problem { document["problems"] = .array([.string(problem)]) }
      print(JSONValue.object(document).serialized(pretty: true))
      if let problem { Console.error(problem) }
    default:
      var lines = runner.order.map { ["shuffled with seed \($0.seed)"] } ?? []
      lines += tests.map { TextEscaping.visible("\($0.file): \($0.name)") }
      let fileCount = Set(tests.map(\.file)).count
      lines.append(
        problem.map { TextEscaping.visible($0) }
          ?? "\(tests.count) test\(tests.count == 1 ? "" : "s") in \(fileCount) file\(fileCount == 1 ? "" : "s")")
      print(lines.joined(separator: "\n"))
    }
    if !missing.isEmpty || !loadErrors.isEmpty { throw Exit.loadError }
    if tests.isEmpty { throw Exit.failed }
  }

  /// Why a run found no test: no test file under the paths, a filter that matched none
  /// of the tests there, or files that register no test and scenarios without `expect`.
  func noTestsFound(files: [String]) -> String {
    let places = paths.joined(separator: ", ")
    guard !files.isEmpty else {
      return "no tests found: no *_test.lua, *_spec.lua or *.scenario.json file under \(places)"
    }
    var filters: [String] = []
    if let filter, !filter.isEmpty { filters.append("--filter \"\(filter)\"") }
    filters += reportOptions.filterOut.filter { !$0.isEmpty }.map { "--filter-out \"\($0)\"" }
    filters += TestReportOptions.tagList(reportOptions.tags).map { "--tags \($0)" }
    filters += TestReportOptions.tagList(reportOptions.excludeTags).map { "--exclude-tags \($0)" }
    // Every test, as this run would load them (its module root too), whatever it selects.
    let everything = makeRunner()
    everything.selection = TestSelection()
    let all = everything.list(files: files).tests
    guard !filters.isEmpty, !all.isEmpty else {
      if files.count == 1, let file = files.first {
        let why = file.hasSuffix(".scenario.json") ? "is a scenario without expect" : "registers no test()"
        return "no tests found: \(file) \(why)"
      }
      return "no tests found: none of the \(files.count) test files under \(places) registers a test() "
        + "or is a scenario with expect"
    }
    let fileCount = Set(all.map(\.file)).count
    return "no tests found: \(filters.joined(separator: " and ")) matched none of the \(all.count) "
      + "test\(all.count == 1 ? "" : "s") in \(fileCount) file\(fileCount == 1 ? "" : "s") (see droprules test --list)"
  }
}
