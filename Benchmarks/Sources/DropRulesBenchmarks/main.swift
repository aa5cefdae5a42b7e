import DropRules
import Foundation

// Measures how the cost of a pointer step grows with the board, as ratios taken in one
// run (the machine is shared and noisy, so absolute figures vary between runs).
// Run with: swift run -c release --package-path Benchmarks

/// A square grid of `count` 10 x 10 targets; `ruleType` targets have a rule, the others none.
func board(targets count: Int, type: String) throws -> Board {
  let side = Int(Double(count).squareRoot().rounded(.up))
  let targets = (0..<count).map { index in
    DropTarget(
      id: "t\(index)", type: type,
      frame: Rect(x: Double(index % side) * 10, y: Double(index / side) * 10, width: 10, height: 10))
  }
  return try Board(targets: targets, items: [])
}

/// Pointer positions spread over the board, the same sequence every run.
func points(count: Int, targets: Int) -> [Point] {
  let side = Double(Int(Double(targets).squareRoot().rounded(.up))) * 10
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53)
  }
  return (0..<count).map { _ in Point(x: next() * side, y: next() * side) }
}

/// Median nanoseconds per pointer step over `rounds` rounds of `points`.
func nanosecondsPerStep(host: RuleHost, points: [Point], rounds: Int = 7) throws -> Double {
  let item = DragItem(id: "probe", representations: [Representation(type: "public.plain-text", payload: "x")])
  var samples: [Double] = []
  for _ in 0..<rounds {
    try host.beginDrag(DragSession(items: [.external(item)]))
    let clock = ContinuousClock()
    let elapsed = try clock.measure {
      for point in points { _ = try host.movePointer(to: point) }
    }
    _ = try host.cancel()
    let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    samples.append(nanoseconds / Double(points.count))
  }
  return samples.sorted()[samples.count / 2]
}

func makeHost(rules: String) throws -> RuleHost {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("droprules-bench-\(UUID().uuidString).lua")
  try rules.write(to: file, atomically: true, encoding: .utf8)
  defer { try? FileManager.default.removeItem(at: file) }
  let host = try RuleHost()
  try host.loadRules(atPaths: [file.path])
  return host
}

let rules = """
  return { box = {
    validateDrop = function(info, target) return true end,
    dropUpdated = function(info, target) return "move" end,
  } }
  """

struct Case {
  let name: String
  let type: String
  let withinOneTarget: Bool
}

let cases = [
  Case(name: "hit-test only (targets without rules)", type: "plain", withinOneTarget: false),
  Case(name: "across targets (exit, validateDrop, enter, dropUpdated)", type: "box", withinOneTarget: false),
  Case(name: "within one target (dropUpdated only)", type: "box", withinOneTarget: true),
]
let sizes = [100, 1_000, 10_000, 100_000]
let steps = 20_000

print("pointer step cost, median of 7 rounds of \(steps) steps")
for benchmark in cases {
  print("\n\(benchmark.name)")
  var perSize: [Int: Double] = [:]
  for size in sizes {
    let host = try makeHost(rules: rules)
    host.board = try board(targets: size, type: benchmark.type)
    let path =
      benchmark.withinOneTarget
      ? (0..<steps).map { Point(x: 1 + Double($0 % 8), y: 5) }
      : points(count: steps, targets: size)
    perSize[size] = try nanosecondsPerStep(host: host, points: path)
    print(
      "  \(String(size).padding(toLength: 7, withPad: " ", startingAt: 0)) targets  "
        + String(format: "%9.0f ns/step", perSize[size] ?? 0))
  }
  if let small = perSize[sizes.first ?? 0], let large = perSize[sizes.last ?? 0] {
    print(String(format: "  ratio %d / %d targets: %.2f", sizes.last ?? 0, sizes.first ?? 0, large / small))
  }
}
