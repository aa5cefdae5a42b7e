import AllocationCounter
import DropRules
import Foundation

// Measures droprules against its yardstick, the same rule called straight through the
// Lua C API, in one run with the runs alternated, and reports ratios (the machine is
// shared and noisy, so absolute figures vary between runs).
//
//   swift run -c release --package-path Benchmarks                     time, allocations, scaling, loading
//   swift run -c release --package-path Benchmarks DropRulesBenchmarks loading
//                                            only loading boards from JSON, 1,000 to 100,000 targets
//   swift run -c release --package-path Benchmarks DropRulesBenchmarks ops MODE N
//                                            runs N operations of one kind (for callgrind): minimal, minimal-hooked, floor,
//                                            hooked, call or step (see Workloads.swift); MODE across:
//                                            pointer steps across a 10,000-target grid without rules;
//                                            MODE stage: pointer steps that each stage a target:set;
//                                            MODE drag: whole drags of 200 steps, begun and cancelled
//   swift run -c release --package-path Benchmarks DropRulesBenchmarks load SHAPE N K
//                                            loads a board of N targets K times (for callgrind)
//   swift run -c release --package-path Benchmarks DropRulesBenchmarks tests [ROUNDS [SIZE...]]
//                                            only droprules test's per-test overhead, files of 100 and 5,000 tests
//   swift run -c release --package-path Benchmarks DropRulesBenchmarks run-tests N K
//                                            runs a file of N small tests K times (for callgrind)
//   swift run -c release --package-path Benchmarks DropRulesBenchmarks hit SHAPE TARGETS N
//                                            N pointer steps to random points of a board (for callgrind)
//   Benchmarks/instructions.sh                instruction counts per operation, via callgrind
//   Benchmarks/hit-instructions.sh            instruction counts per pointer step as boards grow, via callgrind
//   Benchmarks/loading-instructions.sh        instruction counts per target loaded, via callgrind
//   Benchmarks/test-instructions.sh           instruction counts per test, via callgrind

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "loading" {
  try runLoadingBenchmark()
  exit(0)
}
if arguments.first == "compare" {
  try runComparison()
  exit(0)
}
if arguments.first == "allocations" {
  let (_, _, _, _, _, host) = try comparisonWorkloads()
  print("heap allocations in 999 pointer steps within one target: \(try allocationsPerSteps(host))")
  exit(0)
}
if arguments.first == "tests" {
  let values = Array(arguments.dropFirst())
  let sizes = values.dropFirst().compactMap { Int($0) }
  try runTestOverheadBenchmark(
    sizes: sizes.count >= 2 ? sizes : [100, 5_000], rounds: values.first.flatMap { Int($0) } ?? 7)
  exit(0)
}
if arguments.first == "run-tests", arguments.count == 3 {
  guard let tests = Int(Array(arguments)[1]), let times = Int(Array(arguments)[2]) else {
    throw BenchmarkError("run-tests N K: N tests in one file, run K times")
  }
  try runTestsRepeatedly(tests: tests, times: times)
  exit(0)
}
if arguments.first == "load", arguments.count == 4 {
  let values = Array(arguments.dropFirst())
  guard let shape = BoardShape.named(values[0]), let count = Int(values[1]), let repeats = Int(values[2]) else {
    throw BenchmarkError("load SHAPE N K: SHAPE is flat, chain or columns")
  }
  try loadRepeatedly(shape, targets: count, times: repeats)
  exit(0)
}
if arguments.first == "hit", arguments.count == 4 {
  let values = Array(arguments.dropFirst())
  guard let shape = BoardShape.named(values[0]), let targets = Int(values[1]), let steps = Int(values[2]) else {
    throw BenchmarkError("hit SHAPE TARGETS N: N pointer steps over a board of SHAPE (flat, chain or columns)")
  }
  try stepsOverShape(shape, targets: targets, steps: steps)
  exit(0)
}
if arguments.first == "ops", arguments.count == 3, let count = Int(arguments.last ?? "") {
  if arguments.dropFirst().first == "across" {
    try stepAcrossTargets(count)
    exit(0)
  }
  if arguments.dropFirst().first == "drag" {
    // Whole drags of 200 pointer steps, begun and cancelled: what a drag costs, begin
    // and end included, against 200 calls of the minimal host.
    let host = try hostInDrag(rules: benchmarkRule, board: try grid(targets: 100))
    try host.cancel()
    for _ in 0..<count {
      try host.beginDrag(probeDrag)
      for i in 0..<200 { _ = try host.movePointer(to: Point(x: wander(i), y: 5)) }
      try host.cancel()
    }
    exit(0)
  }
  if arguments.dropFirst().first == "minimal-hooked" {
    _ = try minimalHookedWorkload().run(count)
    exit(0)
  }
  if arguments.dropFirst().first == "stage" {
    // Pointer steps whose dropUpdated stages one `target:set` each.
    let host = try hostInDrag(rules: stagingRule, board: try grid(targets: 100))
    for i in 0..<count { _ = try host.movePointer(to: Point(x: wander(i), y: 5)) }
    exit(0)
  }
  let (minimal, floor, hooked, call, step, _) = try comparisonWorkloads()
  let workload = ["minimal": minimal, "floor": floor, "hooked": hooked, "call": call, "step": step][
    arguments.dropFirst().first ?? ""]
  guard let workload else {
    throw BenchmarkError(
      "ops MODE N: MODE is minimal, minimal-hooked, floor, hooked, call, step, across, drag or stage")
  }
  _ = workload.run(count)
  exit(0)
}

/// Pointer steps per hit-testing run.
let operations = 20_000

try runComparison()

print("\nstaging: target:set on every pointer step, 100 against 100,000 targets, alternated")
let small = try hostInDrag(rules: stagingRule, board: try grid(targets: 100))
let large = try hostInDrag(rules: stagingRule, board: try grid(targets: 100_000))
let stagingSteps = 5_000
var stagingRatios: [Double] = []
var stagingTimes: [String: [Double]] = [:]
for round in 0..<9 {
  let pair = round.isMultiple(of: 2) ? [("100", small), ("100000", large)] : [("100000", large), ("100", small)]
  var times: [String: Double] = [:]
  for (name, host) in pair {
    times[name] = measure(stagingSteps) { count in
      for i in 0..<count { _ = try? host.movePointer(to: Point(x: wander(i), y: 5)) }
    }
    stagingTimes[name, default: []].append(times[name] ?? 0)
  }
  stagingRatios.append((times["100000"] ?? 0) / (times["100"] ?? 1))
}
print(String(format: "  100 targets:      %7.0f ns per step", median(stagingTimes["100"] ?? [])))
print(String(format: "  100,000 targets:  %7.0f ns per step", median(stagingTimes["100000"] ?? [])))
print(String(format: "  ratio: %.2f  (target <= 2)", median(stagingRatios)))

print("\nhit-testing across targets (no rule): cost per step from 100 to 100,000 targets")
var acrossTimes: [Int: Double] = [:]
for size in [100, 10_000, 100_000] {
  let across = try hostInDrag(rules: "return {}", board: try grid(targets: size))
  let side = Double(Int(Double(size).squareRoot().rounded(.up))) * 10
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  let points = (0..<operations).map { _ in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let a = Double(state >> 11) / Double(1 << 53)
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Point(x: a * side, y: Double(state >> 11) / Double(1 << 53) * side)
  }
  acrossTimes[size] = median(
    (0..<5).map { _ in
      measure(points.count) { count in for i in 0..<count { _ = try? across.movePointer(to: points[i]) } }
    })
  print(String(format: "  %7d targets  %7.0f ns per step", size, acrossTimes[size] ?? 0))
}
print(String(format: "  ratio 100,000 / 100: %.2f", (acrossTimes[100_000] ?? 0) / (acrossTimes[100] ?? 1)))

try runLoadingBenchmark()
try runTestOverheadBenchmark()

/// The heap allocations of 999 pointer steps within one target, counted over the steps of
/// a drag whose trace buffer the previous drag already grew, as every drag after the
/// first has.
func allocationsPerSteps(_ host: RuleHost) throws -> Int {
  try host.cancel()
  try host.beginDrag(probeDrag)
  for i in 0..<1_000 { _ = try host.movePointer(to: Point(x: wander(i), y: 5)) }
  try host.cancel()
  try host.beginDrag(probeDrag)
  try host.movePointer(to: Point(x: 5, y: 5))
  let before = allocation_count()
  for i in 0..<999 { _ = try host.movePointer(to: Point(x: wander(i), y: 5)) }
  return Int(allocation_count() - before)
}

/// The same dropUpdated through the minimal C host (with and without a count hook), the
/// raw C API (the same), a droprules handler call and a droprules pointer step, in alternated
/// rounds; prints each one's median time and their ratios.
func runComparison() throws {
  let operations = 20_000
  let rounds = 15

  print("droprules against the raw Lua C API: the same dropUpdated, \(rounds) alternated rounds of \(operations)")
  let (minimal, floor, hooked, call, step, host) = try comparisonWorkloads()
  let minimalHooked = try minimalHookedWorkload()
  let workloads = [minimal, minimalHooked, floor, hooked, call, step]
  for workload in workloads { _ = workload.run(operations) }  // warm up
  var callRatios: [Double] = []
  var stepRatios: [Double] = []
  var hookedRatios: [Double] = []
  var minimalCallRatios: [Double] = []
  var minimalStepRatios: [Double] = []
  var minimalHookedRatios: [Double] = []
  var perOperation: [String: [Double]] = [:]
  for round in 0..<rounds {
    // Alternate the order, so that neither side always runs on a warmer machine.
    let order = round.isMultiple(of: 2) ? workloads : workloads.reversed()
    var nanoseconds: [String: Double] = [:]
    for workload in order {
      nanoseconds[workload.name] = workload.run(operations)
    }
    for (name, value) in nanoseconds { perOperation[name, default: []].append(value) }
    let floorTime = nanoseconds[floor.name] ?? 1
    callRatios.append((nanoseconds[call.name] ?? 0) / floorTime)
    stepRatios.append((nanoseconds[step.name] ?? 0) / floorTime)
    hookedRatios.append((nanoseconds[hooked.name] ?? 0) / floorTime)
    let minimalTime = nanoseconds[minimal.name] ?? 1
    minimalCallRatios.append((nanoseconds[call.name] ?? 0) / minimalTime)
    minimalStepRatios.append((nanoseconds[step.name] ?? 0) / minimalTime)
    minimalHookedRatios.append((nanoseconds[minimalHooked.name] ?? 0) / minimalTime)
  }
  for workload in workloads {
    print(
      "  \(workload.name.padding(toLength: 32, withPad: " ", startingAt: 0))  "
        + String(format: "%7.0f ns (median)", median(perOperation[workload.name] ?? [])))
  }
  print(
    String(
      format: "  ratio, C API + count hook / C API:  %.2f  (what any instruction budget costs)", median(hookedRatios)))
  print(String(format: "  ratio, call / C API:  %.2f  (median of per-round ratios)", median(callRatios)))
  print(String(format: "  ratio, step / C API:  %.2f", median(stepRatios)))
  print(
    String(format: "  ratio, call / minimal C host:  %.2f  (issue 23: <= 1.5)", median(minimalCallRatios)))
  print(String(format: "  ratio, step / minimal C host:  %.2f", median(minimalStepRatios)))
  print(
    String(
      format: "  ratio, minimal + count hook / minimal C host:  %.2f  (the least any per-call budget costs)",
      median(minimalHookedRatios)))

  print("  heap allocations in 999 pointer steps within one target: \(try allocationsPerSteps(host))")
  if !host.diagnostics.isEmpty { print("  rule errors: \(host.diagnostics.count)") }
}
