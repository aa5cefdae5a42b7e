import ArgumentParser
import DropRules
import Foundation

struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Replay a scenario's pointer steps many times and report handler timings.",
    discussion: """
      Each iteration begins the scenario's drag, replays its pointer and modifier steps \
      and cancels, on one host. Reports handler calls, nanoseconds per call (mean, p50, \
      p99) and calls per second of wall time. Figures only: there is no pass or fail.
      """
  )

  @Argument(help: "The scenario file to replay.")
  var scenario: String

  @Option(name: .customLong("rules"), help: "Extra rule files or folders.")
  var rules: [String] = []

  @Option(help: "How many times to replay the steps.")
  var iterations = 1000

  @Option(help: "Output format: text or json.")
  var format: RunCommand.TraceFormat = .text

  @OptionGroup var limitOptions: LimitOptions

  func validate() throws {
    guard iterations > 0 else { throw ValidationError("--iterations must be greater than 0") }
  }

  func run() throws {
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: rules, recursive: false)
    for path in missing { Console.error("\(path): no such rule file or folder") }
    if !missing.isEmpty { throw Exit.loadError }
    let scenario: Scenario
    let host: RuleHost
    do {
      scenario = try ScenarioDecoder.load(path: self.scenario)
      host = try ScenarioRunner(limits: limitOptions.limits).makeHost(for: scenario, extraRules: groups.flatMap { $0 })
    } catch {
      Console.error("\(error)")
      throw Exit.loadError
    }
    host.handlerTimings = []
    host.handlerTimings?.reserveCapacity(iterations * scenario.steps.count * 4)
    let started = DispatchTime.now().uptimeNanoseconds
    do {
      for _ in 0..<iterations {
        try host.beginDrag(scenario.drag)
        for step in scenario.steps {
          switch step {
          case .at(let point): try host.movePointer(to: point)
          case .over(let target, let index): try host.moveOver(target, index: index)
          case .modifiers(let modifiers): try host.setModifiers(modifiers)
          case .drop, .cancel: break
          }
        }
        try host.cancel()
      }
    } catch {
      Console.error("\(self.scenario): \(error)")
      throw Exit.loadError
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let timings = (host.handlerTimings ?? []).sorted()
    let calls = timings.count
    let mean = calls == 0 ? 0 : Double(timings.reduce(0, +)) / Double(calls)
    func percentile(_ fraction: Double) -> UInt64 {
      calls == 0 ? 0 : timings[min(calls - 1, Int(Double(calls) * fraction))]
    }
    let perSecond = elapsed > 0 ? Double(calls) / elapsed : 0
    switch format {
    case .json:
      let report: JSONValue = .object([
        "scenario": .string(scenario.name), "iterations": .number(Double(iterations)),
        "calls": .number(Double(calls)), "nsPerCall": .number(mean.rounded()),
        "p50Ns": .number(Double(percentile(0.5))), "p99Ns": .number(Double(percentile(0.99))),
        "callsPerSecond": .number(perSecond.rounded()), "errors": .number(Double(host.diagnostics.count)),
      ])
      print(report.serialized(pretty: true))
    case .text:
      print("scenario        \(scenario.name)")
      print("iterations      \(iterations)")
      print("handler calls   \(calls)")
      print("ns per call     mean \(Int(mean.rounded()))  p50 \(percentile(0.5))  p99 \(percentile(0.99))")
      print("calls/second    \(Int(perSecond.rounded()))")
      if !host.diagnostics.isEmpty { print("rule errors     \(host.diagnostics.count)") }
    }
  }
}
