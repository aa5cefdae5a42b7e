import ArgumentParser
import DropRulesTesting

/// `droprules test` options that choose which tests run, in which order, and what the
/// report adds: listing, shuffling, excluding, coverage files and thresholds.
struct TestReportOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp("Leave out tests whose \"file: name\" contains this text (repeatable).", valueName: "text"))
  var filterOut: [String] = []

  @Option(
    help: ArgumentHelp(
      "Run only tests tagged with one of these (#slow in a test's or a describe's name: slow), comma-separated or "
        + "repeated.", valueName: "tags"))
  var tags: [String] = []

  @Option(
    help: ArgumentHelp("Leave out tests tagged with any of these, comma-separated or repeated.", valueName: "tags"))
  var excludeTags: [String] = []

  /// The tags given, split at commas, without a leading `#`.
  static func tagList(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map { String($0.drop { $0 == "#" || $0 == " " }) }
      .filter { !$0.isEmpty }
  }

  @Flag(help: "List the tests that would run (\"file: name\", one a line) without running them.")
  var list = false

  @Flag(help: "Run the files, and each file's tests, in a shuffled order; prints the seed.")
  var shuffle = false

  @Option(
    help: ArgumentHelp("Shuffle with this seed (0 or more) to repeat an order; implies --shuffle.", valueName: "n"))
  var seed: Int?

  @Option(help: ArgumentHelp("Write line coverage of the rule files to this file, in lcov format.", valueName: "file"))
  var coverageOutput: String?

  @Option(
    help: ArgumentHelp(
      "Fail when total line coverage of the rule files is below this percentage (0 to 100).", valueName: "percent"))
  var coverageThreshold: Double?

  func validate() throws {
    if let seed, seed < 0 { throw ValidationError("--seed must be 0 or more") }
    if let threshold = coverageThreshold, !(threshold.isFinite && (0...100).contains(threshold)) {
      throw ValidationError("--coverage-threshold must be a percentage from 0 to 100")
    }
    if let path = coverageOutput, path.isEmpty { throw ValidationError("--coverage-output needs a file path") }
  }

  /// The order to run in: nil for file order, else shuffled by the given seed or a new one.
  func order() -> TestOrder? {
    if let seed { return TestOrder(seed: UInt64(seed)) }
    return shuffle ? TestOrder(seed: TestOrder.randomSeed()) : nil
  }
}
