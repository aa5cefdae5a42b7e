import ArgumentParser
import DropRules
import DropRulesTesting
import DropRulesTools
import Foundation

struct FuzzCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fuzz",
    abstract: "Make random drags over a scenario's board and check what must always hold.",
    discussion: """
      Each drag picks items (board items, or one from another app), operations and \
      modifiers, then pointer steps aimed at frame edges, list gaps and row thirds, nested \
      and overlapping targets, sub-pixel jitter, modifier changes, waits and drags out, and \
      ends in a drop or a cancel. After each drag it checks the host's promises (enter and \
      exit pair up; a drag that is not performed changes nothing; a copy never takes from \
      its source; no proposal outside the allowed operations; the same seed gives the same \
      drags), what rule sets almost always mean (no rule error; a drop keeps every item \
      unless its target says deletes = true or duplicates = true; the target does not flip \
      while the pointer moves less than a pixel), and every property(name, check) of the \
      test files among the paths. The first drag that breaks one is shrunk and written, \
      with copies of the rule files, as a scenario `droprules run` replays.
      Exit status: 0 nothing broke; 1 a property broke; 2 input could not be loaded.
      """
  )

  @Argument(
    help:
      "Rule files or folders: their rules load after the scenario's, and their *_test.lua files' properties are checked."
  )
  var paths: [String] = []

  @Option(help: "The scenario whose board, rules and external items the drags use.")
  var scenario: String

  @Option(help: "How many drags to make (1 to 10,000,000).")
  var drags = 1_000

  @Option(help: "The seed the drags follow from (default: a random one, printed).")
  var seed: UInt64?

  @Option(help: "Stop making drags after this many seconds (1 to 86,400; default: no limit).")
  var maxSeconds: Int?

  @Option(help: "The folder a failing drag's scenario is written to.")
  var out = "droprules-fuzz"

  @Option(help: "Output format: text or json.")
  var format: ReportFormat = .text

  @OptionGroup var limitOptions: LimitOptions

  enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  func validate() throws {
    guard (1...10_000_000).contains(drags) else { throw ValidationError("--drags must be between 1 and 10,000,000") }
    if let maxSeconds, !(1...86_400).contains(maxSeconds) {
      throw ValidationError("--max-seconds must be between 1 and 86400 (a day), got \(maxSeconds)")
    }
    // JSON reports carry the seed as an integer: at most 2^63 - 1.
    if let seed, seed > UInt64(Int64.max) {
      throw ValidationError("--seed must be between 0 and 9223372036854775807, got \(seed)")
    }
  }

  func run() throws {
    let (groups, tests, missing) = FileDiscovery.fuzzInputs(in: paths)
    for path in missing { Console.error("\(path): no such rule file or folder") }
    if !missing.isEmpty { throw Exit.loadError }
    let fuzzer: Fuzzer
    do {
      let loaded = try ScenarioDecoder.load(path: scenario, maximumBytes: limitOptions.maxScenarioBytes)
      let runner = ScenarioRunner(limits: limitOptions.limits, trustedRuleRoots: paths)
      fuzzer = try Fuzzer(
        scenario: loaded, runner: runner, extraRules: groups.flatMap { $0 },
        testFiles: tests)
    } catch {
      Console.error("\(error)")
      throw Exit.loadError
    }
    var options = Fuzzer.Options()
    options.drags = drags
    options.seed = seed ?? UInt64.random(in: 1...999_999)
    options.outputDirectory = out
    options.maximumSeconds = maxSeconds.map(Double.init)
    let showsProgress = isatty(STDERR_FILENO) != 0 && drags >= 1_000
    let report: Fuzzer.Report
    do {
      report = try fuzzer.run(options) { done in
        guard showsProgress else { return }
        FileHandle.standardError.write(Data("\r  \(done) of \(drags) drags".utf8))
      }
    } catch {
      Console.error("\(error)")
      throw Exit.loadError
    }
    if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    switch format {
    case .text: print(LimitFlags.naming(FuzzReportText.text(report)))
    case .json: print(FuzzReportText.json(report).serialized(pretty: true))
    }
    if report.finding != nil { throw Exit.failed }
  }
}
