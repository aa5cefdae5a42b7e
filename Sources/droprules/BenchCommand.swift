import ArgumentParser
import DropRules
import DropRulesModel
import DropRulesTools
import Foundation

struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Replay a scenario's pointer steps many times and report handler timings.",
    discussion: """
      Each iteration begins the scenario's drag, replays its pointer and modifier steps \
      and cancels, on one host. Reports handler calls, nanoseconds per call (mean, p50, \
      p99; the cost of reading the clock is measured and taken off), calls per second of \
      wall time, and nanoseconds per whole pointer step (timed a drag at a time). Figures \
      only: there is no pass or fail.
      """
  )

  @Argument(help: "The scenario file to replay.")
  var scenario: String

  @Option(name: .customLong("rules"), help: "Extra rule files or folders.")
  var rules: [String] = []

  // Unconditional: "-5" is a count to refuse with a message, not an option.
  @Option(parsing: .unconditional, help: "How many times to replay the steps.")
  var iterations = 1000

  @Option(help: "Output format: text or json.")
  var format: ReportFormat = .text

  /// Bench reports figures: there is no replay to draw, so no html.
  enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @OptionGroup var limitOptions: LimitOptions

  func validate() throws {
    guard (1...10_000_000).contains(iterations) else {
      throw ValidationError("--iterations must be between 1 and 10000000, got \(iterations)")
    }
  }

  func run() throws {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: rules, recursive: false)
    for path in missing { Console.error("\(path): no such rule file or folder") }
    if !missing.isEmpty { throw Exit.loadError }
    let scenario: Scenario
    let host: RuleHost
    do {
      scenario = try ScenarioDecoder.load(path: self.scenario, maximumBytes: limitOptions.maxScenarioBytes)
      host = try ScenarioRunner(limits: limitOptions.limits, trustedRuleRoots: rules).makeHost(
        for: scenario, extraRules: groups.flatMap { $0 })
    } catch {
      Console.error("\(error)")
      throw Exit.loadError
    }
    let pointerSteps = scenario.steps.filter { !$0.endsDrag }
    let initialBoard = host.board
    var commitsAtStart = host.commits
    let timerCost = Self.emptyTimedRegionNanoseconds()
    host.handlerTimings = []
    host.handlerTimings?.reserveCapacity(min(iterations * max(pointerSteps.count, 1) * 4, 1 << 22))
    // Steps are timed a whole drag at a time, so the clock is read twice per drag, not per step.
    var stepNanoseconds: UInt64 = 0
    let started = DispatchTime.now().uptimeNanoseconds
    do {
      for _ in 0..<iterations {
        // A drag its sources refuse has no steps to time.
        if try host.beginDrag(scenario.drag).isRefused { continue }
        let dragStarted = DispatchTime.now().uptimeNanoseconds
        for step in pointerSteps { try host.perform(step) }
        stepNanoseconds += DispatchTime.now().uptimeNanoseconds - dragStarted
        try host.cancel()
        // dragEnded may commit changes even on a cancel: each iteration starts afresh,
        // told by the count of commits (comparing boards cost 715 instructions a target).
        if host.commits != commitsAtStart {
          try host.replaceBoard(initialBoard)
          commitsAtStart = host.commits
        }
      }
    } catch {
      Console.error("\(self.scenario): \(error)")
      throw Exit.loadError
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    // Each call's timing holds one empty timed region's cost too: take it off.
    let timings = (host.handlerTimings ?? []).map { timing in
      HandlerTiming(
        handler: timing.handler, nanoseconds: timing.nanoseconds > timerCost ? timing.nanoseconds - timerCost : 0)
    }
    let all = TimingFigures(timings.map(\.nanoseconds), seconds: elapsed)
    let byHandler = Dictionary(grouping: timings, by: \.handler).mapValues {
      TimingFigures($0.map(\.nanoseconds), seconds: elapsed)
    }
    let handlers = Handler.allCases.filter { byHandler[$0] != nil }
    let steps = iterations * pointerSteps.count
    let perStep = steps == 0 ? 0 : Double(stepNanoseconds) / Double(steps)
    switch format {
    case .json:
      var report = all.json
      report["scenario"] = .string(scenario.name)
      report["iterations"] = .integer(Int64(iterations))
      report["errors"] = .integer(Int64(host.diagnostics.count))
      report["steps"] = .integer(Int64(steps))
      report["nsPerStep"] = TimingFigures.whole(perStep)
      report["timerOverheadNs"] = .integer(Int64(clamping: timerCost))
      report["handlers"] = .object(
        Dictionary(uniqueKeysWithValues: handlers.map { ($0.rawValue, JSONValue.object(byHandler[$0]?.json ?? [:])) }))
      report["debugBuild"] = .bool(Self.isDebugBuild)
      print(JSONValue.object(report).serialized(pretty: true))
    case .text:
      if Self.isDebugBuild {
        print("note            a debug build: its figures are several times a release build's (swift build -c release)")
      }
      print("scenario        \(scenario.name)")
      print("iterations      \(iterations)")
      print("handler calls   \(all.calls)")
      print("ns per call     \(all.text)")
      print("calls/second    \(Int(all.perSecond.rounded()))")
      for handler in handlers {
        guard let figures = byHandler[handler] else { continue }
        let name = handler.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)
        print("  \(name) \(figures.calls) calls, \(figures.text)")
      }
      print("pointer steps   \(steps)")
      print("ns per step     mean \(Int(perStep.rounded()))  (hit-test, handler calls, negotiation, trace)")
      print("timer overhead  \(timerCost) ns, taken off each call")
      if !host.diagnostics.isEmpty { print("rule errors     \(host.diagnostics.count)") }
    }
  }

  /// Whether this binary was built without optimisation: its figures are not the ones
  /// to compare.
  static var isDebugBuild: Bool {
    #if DEBUG
      true
    #else
      false
    #endif
  }

  /// The median cost of an empty region timed the way handler calls are.
  static func emptyTimedRegionNanoseconds() -> UInt64 {
    var samples: [UInt64] = []
    samples.reserveCapacity(1001)
    for _ in 0...1000 {
      let start = DispatchTime.now().uptimeNanoseconds
      samples.append(DispatchTime.now().uptimeNanoseconds - start)
    }
    return samples.sorted()[samples.count / 2]
  }
}

/// Calls, nanoseconds per call (mean, p50, p99) and calls per second of wall time, of
/// all handler calls or of one handler's.
struct TimingFigures {
  let calls: Int
  let mean: Double
  let p50: UInt64
  let p99: UInt64
  let perSecond: Double

  init(_ nanoseconds: [UInt64], seconds: Double) {
    let sorted = nanoseconds.sorted()
    calls = sorted.count
    mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count)
    func percentile(_ fraction: Double) -> UInt64 {
      sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    p50 = percentile(0.5)
    p99 = percentile(0.99)
    perSecond = seconds > 0 ? Double(calls) / seconds : 0
  }

  /// `mean 812  p50 790  p99 1500`.
  var text: String { "mean \(Int(mean.rounded()))  p50 \(p50)  p99 \(p99)" }

  /// `calls`, `nsPerCall`, `p50Ns`, `p99Ns`, `callsPerSecond`: whole numbers, as integers.
  var json: [String: JSONValue] {
    [
      "calls": .integer(Int64(calls)), "nsPerCall": Self.whole(mean), "p50Ns": .integer(Int64(clamping: p50)),
      "p99Ns": .integer(Int64(clamping: p99)), "callsPerSecond": Self.whole(perSecond),
    ]
  }

  static func whole(_ value: Double) -> JSONValue { .integer(Int64(exactly: value.rounded()) ?? 0) }
}
