import DropRules
import DropRulesTools

/// A test that a run would run: a `test(...)` of a `*_test.lua` file, or a scenario
/// with `expect`.
public struct TestListing: Sendable, Equatable {
  /// The test file or scenario file.
  public var file: String
  /// The name given to `test(...)`, or the scenario's name.
  public var name: String
  /// The line of the `test(...)` call; nil for a scenario.
  public var line: Int?

  package init(file: String, name: String, line: Int? = nil) {
    self.file = file
    self.name = name
    self.line = line
  }
}

extension RuleTestRunner {
  /// The tests ``run(files:)`` would run, in the order it would run them, without
  /// running any: a test file's top-level code runs (it registers the tests), no test
  /// body does. Files that do not load come back as load errors, as a run reports them.
  public func list(files: [String]) -> (tests: [TestListing], loadErrors: [TestCaseResult]) {
    var tests: [TestListing] = []
    var loadErrors: [TestCaseResult] = []
    for file in order?.files(files) ?? files {
      do {
        tests += try listed(in: file)
      } catch {
        guard reportsLoadError(of: file) else { continue }
        loadErrors.append(
          TestCaseResult(file: file, name: file, status: .loadError, failures: [String(describing: error)]))
      }
    }
    return (tests, loadErrors)
  }

  private func listed(in file: String) throws -> [TestListing] {
    if file.hasSuffix(".scenario.json") {
      let scenario = try ScenarioDecoder.load(path: file, maximumBytes: maximumScenarioBytes)
      guard scenario.expect != nil, selected(file, scenario.name) else { return [] }
      return [TestListing(file: file, name: scenario.name)]
    }
    let registered = try RuleTestFile(file: file, limits: limits, coverage: nil, moduleRoot: moduleRoot).load()
    let chosen = registered.filter { selected(file, $0.name) }
    return (order?.tests(chosen, inFile: file) ?? chosen).map { TestListing(file: file, name: $0.name, line: $0.line) }
  }
}
