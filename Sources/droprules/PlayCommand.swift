import ArgumentParser
import DropRules
import DropRulesPlayground
import DropRulesTools
import DropRulesWeb
import Foundation

struct PlayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Serve a page on 127.0.0.1 where dragging with the mouse drives the rules.",
    discussion: """
      Draws the scenario's board in the browser: each target a box at its frame, each \
      item draggable. The browser's own drag and drop drives the rules through the host \
      protocol (POST /rpc): dragstart begins the drag, dragover moves the pointer and \
      shows the proposal, drop drops, a drag let go elsewhere cancels. A rule file saved \
      on disk is loaded again before the next drag. Prints the address, then serves \
      until interrupted (Ctrl-C).
      Exit status: 2 the scenario or rules did not load, or the port is taken.
      """
  )

  @Argument(help: "The scenario file (*.scenario.json) whose rules and board to play with.")
  var scenario: String

  @Option(help: "The port to listen on, on 127.0.0.1 (0 lets the system choose).")
  var port: Int = 8765

  @Option(name: .customLong("rules"), help: "Extra rule files or folders, loaded after the scenario's own rules.")
  var rules: [String] = []

  @OptionGroup var answerOptions: AnswerOptions

  @OptionGroup var limitOptions: LimitOptions

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
  }

  func run() async throws {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: rules, recursive: false)
    for path in missing { Console.error("\(path): no such rule file or folder") }
    if !missing.isEmpty { throw Exit.loadError }
    let loaded: Scenario
    let host: RuleHost
    do {
      loaded = try ScenarioDecoder.load(path: scenario, maximumBytes: limitOptions.maxScenarioBytes)
      let runner = ScenarioRunner(limits: limitOptions.limits, trustedRuleRoots: rules)
      host = try runner.makeHost(for: loaded, extraRules: groups.flatMap { $0 })
    } catch ScenarioRunError.rules(let load) {
      for problem in load.problems { Console.error(problem.description) }
      throw Exit.loadError
    } catch {
      Console.error("\(error)")
      throw Exit.loadError
    }
    let page = PlaygroundPage().html(scenario: loaded, ruleFiles: host.ruleFiles)
    let session = ProtocolSession(host: host, declaredTypes: loaded.types, limits: limitOptions.limits)
    let server = PlaygroundServer(
      dispatcher: PlaygroundDispatcher(
        dispatcher: ProtocolDispatcher(
          session: session, ruleRoots: Self.ruleRoots(of: host.ruleFiles, scenario: scenario),
          maximumAnswerBytes: answerOptions.maxAnswerBytes)),
      page: page, port: UInt16(port)
    )
    do {
      try await server.run { port in
        // Written at once, unbuffered: a script waiting for the address reads it now.
        let line = "droprules play: serving at http://127.0.0.1:\(port)/  (Ctrl-C stops)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
      }
    } catch {
      Console.error("cannot serve on 127.0.0.1:\(port): \(error)")
      throw Exit.loadError
    }
  }

  /// The folders the page may load rules from: those of the rules it started with, and
  /// the scenario's own.
  static func ruleRoots(of ruleFiles: [String], scenario: String) -> [String] {
    let folders = (ruleFiles + [scenario]).map { path -> String in
      let folder = (path as NSString).deletingLastPathComponent
      return folder.isEmpty ? "." : folder
    }
    return Array(Set(folders)).sorted()
  }
}
