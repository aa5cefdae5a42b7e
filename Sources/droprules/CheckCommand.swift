import ArgumentParser
import DropRules
import DropRulesModel
import DropRulesTools

struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Load rule files in the sandbox and report problems as file:line: message.",
    discussion: """
      Reports syntax errors, unknown handler names (with a suggestion), handlers that are \
      not functions, and accepted types that are neither built in nor declared. The rule \
      files of one folder are loaded together; files under lib/ folders are modules.
      Exit status: 0 clean; 1 problems.
      """
  )

  @Argument(
    help: "Rule files or folders, searched recursively (default: rules/ if it exists, else the current folder).")
  var paths: [String] = []

  mutating func validate() throws {
    if paths.isEmpty { paths = DefaultRulePaths.paths }
  }

  @OptionGroup var limitOptions: LimitOptions

  func run() throws {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: paths, recursive: true)
    var problems = missing.map { "\($0): no such file or folder" }
    var fileCount = 0
    for group in groups {
      fileCount += group.count
      do {
        let host = try RuleHost(limits: limitOptions.limits)
        problems += host.loadRulesCollectingProblems(atPaths: group).map(\.description)
      } catch {
        problems.append(error.description)
      }
    }
    // Problems quote names from the rule files: escaped, none can pass for a line of ours.
    for problem in problems { print(TextEscaping.visible(problem)) }
    if !problems.isEmpty {
      print(
        "\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(fileCount) rule file\(fileCount == 1 ? "" : "s")"
      )
      throw Exit.failed
    }
    print("\(fileCount) rule file\(fileCount == 1 ? "" : "s") checked, no problems")
  }
}
