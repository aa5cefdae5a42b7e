import ArgumentParser
import DropRules
import DropRulesTools
import Foundation

struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the rules over JSON-RPC 2.0 on stdin and stdout, one message a line.",
    discussion: """
      Reads one request a line on stdin and writes one response a line on stdout: \
      load, setBoard, beginDrag, move, modifiers, outside, wait, drop, cancel, board, \
      describe, trace, errors, version. A scenario, if given, supplies the rules and the \
      board. A line may hold at most 16 MiB, and an answer line at most --max-answer-bytes \
      of answers (128 MiB): the answer past it is an error (-32002) and the rest of its \
      batch does not run. A bad request is answered with an error and never ends the \
      server; the end of stdin does.
      Exit status: 0 at the end of input; 1 stdout was closed; 2 the scenario or rules did not load.
      """
  )

  @Argument(help: "A scenario file (*.scenario.json) whose rules and board the session starts with.")
  var scenario: String?

  @Option(
    name: .customLong("rules"),
    help: ArgumentHelp("Rule files or folders to load, after the scenario's own rules.", valueName: "path"))
  var rules: [String] = []

  @OptionGroup var answerOptions: AnswerOptions

  @OptionGroup var limitOptions: LimitOptions

  func run() throws {
    let session: ProtocolSession
    do {
      session = try makeSession()
    } catch {
      // Each problem of rule files that did not load on its own line, as `check` prints them.
      let problems: [String]
      switch error {
      case ProtocolSessionError.rules(let load), ScenarioRunError.rules(let load):
        problems = load.problems.map(\.description)
      default: problems = ["\(error)"]
      }
      for problem in problems { Console.error(problem) }
      throw Exit.loadError
    }
    let dispatcher = ProtocolDispatcher(session: session, maximumAnswerBytes: answerOptions.maxAnswerBytes)
    // A client that closes its end of stdout gets an error on write, not a signal.
    signal(SIGPIPE, SIG_IGN)
    var splitter = RequestLineSplitter()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      // Each line is answered before more input is read: a client that stops reading
      // our answers blocks us on the write, and we hold one answer, never a queue.
      let lines = buffer.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      for line in lines { try answer(line, with: dispatcher) }
    }
    if let line = splitter.finish() { try answer(line, with: dispatcher) }
  }

  private func makeSession() throws -> ProtocolSession {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: rules, recursive: false)
    if let path = missing.first { throw ServeError("\(path): no such rule file or folder") }
    let extraRules = groups.flatMap { $0 }
    guard let scenario else {
      let session = try ProtocolSession(limits: limitOptions.limits)
      if !extraRules.isEmpty { try session.loadRules(extraRules) }
      return session
    }
    let loaded = try ScenarioDecoder.load(path: scenario, maximumBytes: limitOptions.maxScenarioBytes)
    let runner = ScenarioRunner(limits: limitOptions.limits, trustedRuleRoots: rules)
    let host = try runner.makeHost(for: loaded, extraRules: extraRules)
    return ProtocolSession(host: host, declaredTypes: loaded.types, limits: limitOptions.limits)
  }

  private func answer(_ line: RequestLineSplitter.Line, with dispatcher: ProtocolDispatcher) throws {
    let response: JSONTextWriter?
    switch line {
    case .complete(let request): response = dispatcher.answerLine(to: request)
    case .tooLong(let byteCount): response = ProtocolDispatcher.overlongRequestLine(byteCount: byteCount)
    }
    guard let response else { return }
    // Written from the writer's own bytes: a copy would double what a long answer holds.
    guard response.withLineBytes(Self.writeAll) else {
      Console.error("stdout was closed; ending")
      throw Exit.failed
    }
  }

  /// Writes every byte to stdout, blocking while the client does not read.
  private static func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
      let written = write(STDOUT_FILENO, base + offset, bytes.count - offset)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }
}

/// The bound of an answer line, for `serve` and `play`.
struct AnswerOptions: ParsableArguments {
  static let range = 1024...(4 << 30)

  @Option(
    help: ArgumentHelp(
      "The most bytes of answers one answer line holds (1024 to 4 GiB, default 128 MiB); past it an answer is an error and the rest of its batch does not run.",
      valueName: "bytes"))
  var maxAnswerBytes = ProtocolDispatcher.defaultMaximumAnswerBytes

  func validate() throws {
    guard Self.range.contains(maxAnswerBytes) else {
      throw ValidationError("--max-answer-bytes must be between 1024 and 4294967296 (4 GiB), got \(maxAnswerBytes)")
    }
  }
}

/// A serve setup problem, printed as it is.
struct ServeError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
