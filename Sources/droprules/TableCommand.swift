import ArgumentParser
import DropRules
import DropRulesTesting
import DropRulesTools
import Foundation

struct TableCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "table",
    abstract: "Evaluate rules over a board's whole decision space, committing nothing.",
    discussion: """
      For each target, each board item and item from another app, each set of allowed \
      operations (move+copy, move, copy), each modifier the rules read, and each position \
      (a target's centre; before, into and after each row of a list, and its end): the \
      negotiated proposal and how a drop there ends (run, then undone). Then what is worth \
      a look: targets that forbid everything, drops shown as possible that fail, drops \
      that would put a container inside itself, types that always decide the same, things \
      nothing takes.
      A rule whose calls ran out of time (--max-time) 3 times is given up on: the later \
      cells over or from its targets are marked `not computed`. With --max-seconds, the \
      cells left when the time is up are marked too, and the table says it stopped at the \
      time limit.
      Exit status: 0 every cell computed; 2 input could not be loaded or the space is over \
      --max-cells; 3 some cells not computed.
      """
  )

  @Argument(help: "More rule files or folders, loaded after the scenario's own rules.")
  var paths: [String] = []

  @Option(help: "The scenario whose board and rules are tabled.")
  var scenario: String

  @Option(help: "Output format: text, json, csv or html.")
  var format: TableFormat = .text

  @Option(help: "The most cells evaluated (default 20,000); a bigger space is refused.")
  var maxCells = 20_000

  @OptionGroup var timeOption: TableTimeOption

  @OptionGroup var limitOptions: LimitOptions

  enum TableFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv, html
  }

  func validate() throws {
    guard (1...10_000_000).contains(maxCells) else {
      throw ValidationError("--max-cells must be between 1 and 10,000,000")
    }
  }

  func run() throws {
    let table = try DecisionTableLoading.table(
      scenario: scenario, rules: paths, replacingScenarioRules: false, maxCells: maxCells,
      maxSeconds: timeOption.maxSeconds.map(Double.init), options: limitOptions)
    switch format {
    case .text: print(LimitFlags.naming(table.text(scenario: scenario)))
    case .json: print(table.json(scenario: scenario).serialized(pretty: true))
    case .csv: print(table.csv)
    case .html: print(table.html(scenario: scenario), terminator: "")
    }
    if table.cellsNotComputed > 0 { throw Exit.incomplete }
  }
}

struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Print the decisions that changed between two versions of the rules.",
    discussion: """
      Tables the scenario's board with the OLD rules and with the NEW ones (each in place \
      of the scenario's own) and prints the cells whose proposal, outcome or entered \
      target differ, as `target · dragged · position · operations · modifiers: old -> new`. \
      A cell not computed in either version (--max-seconds, half for each version, or a \
      rule given up on after 3 calls ran out of time) is not compared, and a line says how \
      many.
      Exit status: 0 nothing changed; 1 some decision changed; 2 input could not be \
      loaded; 3 nothing changed among the cells compared, but some were not computed.
      """
  )

  @Argument(help: "The old rule file or folder.")
  var old: String

  @Argument(help: "The new rule file or folder.")
  var new: String

  @Option(help: "The scenario whose board is tabled.")
  var scenario: String

  @Option(help: "The most cells evaluated per version (default 20,000).")
  var maxCells = 20_000

  @OptionGroup var timeOption: TableTimeOption

  @OptionGroup var limitOptions: LimitOptions

  func run() throws {
    // Both versions are looked for before either is tabled: a missing NEW is said at once.
    let missing = [old, new].filter { !FileManager.default.fileExists(atPath: $0) }
    for path in missing { Console.error("\(path): no such rule file or folder") }
    if !missing.isEmpty { throw Exit.loadError }
    // Half the time for each version: --max-seconds bounds the whole command.
    let seconds = timeOption.maxSeconds.map { Double($0) / 2 }
    let before = try DecisionTableLoading.table(
      scenario: scenario, rules: [old], replacingScenarioRules: true, maxCells: maxCells, maxSeconds: seconds,
      options: limitOptions)
    let after = try DecisionTableLoading.table(
      scenario: scenario, rules: [new], replacingScenarioRules: true, maxCells: maxCells, maxSeconds: seconds,
      options: limitOptions)
    let diff = DecisionTableDiff(old: before, new: after)
    print(LimitFlags.naming(diff.text))
    for (version, table) in [("old", before), ("new", after)] {
      for sentence in table.incompleteness { print("\(version): " + TextEscaping.visible(sentence)) }
    }
    if !diff.changes.isEmpty { throw Exit.failed }
    if diff.notCompared > 0 { throw Exit.incomplete }
  }
}

/// `--max-seconds` for `table` and `diff`, in `fuzz`'s range.
struct TableTimeOption: ParsableArguments {
  @Option(
    help:
      "Stop computing cells after this many seconds (1 to 86,400; default: no limit); the cells left are marked not computed."
  )
  var maxSeconds: Int?

  func validate() throws {
    if let maxSeconds, !(1...86_400).contains(maxSeconds) {
      throw ValidationError("--max-seconds must be between 1 and 86400 (a day), got \(maxSeconds)")
    }
  }
}

/// Loading a scenario and tabling it, for `table` and `diff`: input errors exit 2.
enum DecisionTableLoading {
  static func table(
    scenario path: String, rules: [String], replacingScenarioRules: Bool, maxCells: Int, maxSeconds: Double?,
    options: LimitOptions
  ) throws -> DecisionTable {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: rules, recursive: false)
    for path in missing { Console.error("\(path): no such rule file or folder") }
    if !missing.isEmpty { throw Exit.loadError }
    do {
      var scenario = try ScenarioDecoder.load(path: path, maximumBytes: options.maxScenarioBytes)
      if replacingScenarioRules { scenario.rules = [] }
      var builder = DecisionTableBuilder(
        scenario: scenario, runner: ScenarioRunner(limits: options.limits, trustedRuleRoots: rules),
        extraRules: groups.flatMap { $0 })
      builder.maximumCells = maxCells
      builder.maximumSeconds = maxSeconds
      return try builder.build()
    } catch {
      Console.error("\(error)")
      throw Exit.loadError
    }
  }
}
