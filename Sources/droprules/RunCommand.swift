import ArgumentParser
import DropRules
import DropRulesTools
import DropRulesWeb
import Foundation

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Replay scenarios and print the trace.",
    discussion: """
      Prints, per step, the handlers called and their results, the proposal, any \
      downgrade and rule errors, then the outcome and the final board.
      --format html writes one self-contained HTML page (no network fetches) that draws \
      each board from its frames and replays the drag with a step slider; redirect it \
      to a file and open that in a browser.
      Exit status: 0 clean; 1 an expectation failed or a rule raised; 2 input could not be loaded.
      """
  )

  @Argument(help: "Scenario files (*.scenario.json).")
  var scenarios: [String]

  @Option(name: .customLong("rules"), help: "Extra rule files or folders, loaded after the scenario's own rules.")
  var rules: [String] = []

  @Option(help: "Output format: text, json or html.")
  var format: TraceFormat = .text

  @OptionGroup var limitOptions: LimitOptions

  enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, html
  }

  func validate() throws {
    guard !scenarios.isEmpty else { throw ValidationError("give at least one scenario file") }
  }

  func run() throws {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: rules, recursive: false)
    for path in missing { Console.error("\(path): no such rule file or folder") }
    // A scenario may name rule files under the paths the user gave with --rules, too.
    let runner = ScenarioRunner(limits: limitOptions.limits, trustedRuleRoots: rules)
    var results: [ScenarioResult] = []
    var loadFailed = !missing.isEmpty
    for path in scenarios {
      do {
        let scenario = try ScenarioDecoder.load(path: path, maximumBytes: limitOptions.maxScenarioBytes)
        results.append(try runner.run(scenario, extraRules: groups.flatMap { $0 }))
      } catch let error as ScenarioError {
        Console.error(error.description)
        loadFailed = true
      } catch ScenarioRunError.refusedRuleFile(let refusal) {
        Console.error(refusal.description)
        loadFailed = true
      } catch {
        Console.error("\(path): \(error)")
        loadFailed = true
      }
    }
    let report = TraceReport(colored: format == .text && Console.usesColor)
    switch format {
    case .text:
      if !results.isEmpty { print(LimitFlags.naming(results.map(report.text).joined(separator: "\n\n"))) }
    case .json: print(report.json(results))
    case .html: if !results.isEmpty { print(ReplayPage().html(results), terminator: "") }
    }
    if loadFailed { throw Exit.loadError }
    if results.contains(where: { !$0.passed }) { throw Exit.failed }
  }
}
