import DropRules
import DropRulesTools
import Foundation
import LuaFloor

/// The rule every comparison runs: what a typical dropUpdated reads.
let benchmarkRule =
  ProcessInfo.processInfo.environment["BENCH_TRIVIAL"] != nil
  ? "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }"
  : """
  return { box = {
    dropUpdated = function(info, target)
      if target.data.locked then return "forbidden" end
      if info.location.y < 0 then return "cancel" end
      return info.modifiers.option and "copy" or "move"
    end,
    -- A drop target needs one: a rule without it proposes only "forbidden".
    performDrop = function() return true end,
  } }
  """

/// A rule that stages a change on every pointer step.
let stagingRule = """
  return { box = {
    dropUpdated = function(info, target)
      target:set("visits", (target.data.visits or 0) + 1)
      return "move"
    end,
    performDrop = function() return true end,
  } }
  """

/// A square grid of `count` 10 x 10 targets of type `type`.
func grid(targets count: Int, type: String = "box") throws -> Board {
  let side = Int(Double(count).squareRoot().rounded(.up))
  let targets = (0..<count).map { index in
    DropTarget(
      id: "t\(index)", type: type,
      frame: Rect(x: Double(index % side) * 10, y: Double(index / side) * 10, width: 10, height: 10))
  }
  return try Board(targets: targets, items: [])
}

/// A drag of one item from another app that allows move and copy.
let probeDrag = DragRequest(
  items: [.external(DragItem(id: "probe", representations: [Representation(type: "public.plain-text", payload: "x")]))],
  allowedOperations: [.copy, .move])

/// A host with `rules` loaded, on `board`, in a drag whose pointer is inside target t0.
func hostInDrag(rules: String, board: Board) throws -> RuleHost {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent("droprules-bench-\(UUID().uuidString).lua")
  try rules.write(to: file, atomically: true, encoding: .utf8)
  defer { try? FileManager.default.removeItem(at: file) }
  let host = try RuleHost()
  try host.loadRules(atPaths: [file.path])
  try host.replaceBoard(board)
  try host.beginDrag(probeDrag)
  try host.movePointer(to: Point(x: 5, y: 5))
  return host
}

/// The pointer's x for operation `i`: it wanders inside target t0 (x from 1 to 8).
@inline(__always) func wander(_ i: Int) -> Double { 1 + Double(i & 7) }

/// One kind of operation, run `count` times.
struct Workload {
  let name: String
  /// Runs the operations and returns the nanoseconds they took (setup excluded).
  let run: (Int) -> Double
}

/// The same rule four ways: through the smallest C host, through the raw C API writing
/// both points whole (with and without a count hook), as one droprules handler call, and
/// as a whole droprules pointer step (hit-test, info update, call, negotiation, trace).
func comparisonWorkloads() throws -> (
  minimal: Workload, floor: Workload, hooked: Workload, call: Workload, step: Workload, host: RuleHost
) {
  guard let floor = lua_floor_open(benchmarkRule, "box"), let hookedFloor = lua_floor_open(benchmarkRule, "box"),
    let minimalFloor = lua_floor_open(benchmarkRule, "box")
  else {
    throw BenchmarkError("the C floor did not load")
  }
  lua_floor_count_instructions(hookedFloor)
  lua_floor_prepare_minimal(minimalFloor)
  let host = try hostInDrag(rules: benchmarkRule, board: try grid(targets: 100))
  let rules = host.engine.rules
  guard let rule = rules.rule(forTargetType: "box") else { throw BenchmarkError("no rule for box") }
  // The smallest host that could serve the rule: two fields written, one call, the
  // answer told by its address (issue 23's yardstick).
  let minimal = minimalWorkload(minimalFloor, name: "minimal C API call")
  let floorWorkload = Workload(name: "raw C API call") { count in
    measure(count) { count in
      for i in 0..<count { precondition(lua_floor_call(floor, wander(i), 5) == 0) }
    }
  }
  let hooked = Workload(name: "raw C API call + count hook") { count in
    measure(count) { count in
      for i in 0..<count { precondition(lua_floor_call(hookedFloor, wander(i), 5) == 0) }
    }
  }
  let call = Workload(name: "droprules dropUpdated call") { count in
    measure(count) { count in
      for i in 0..<count {
        let point = Point(x: wander(i), y: 5)
        let result = rules.call(
          .dropUpdated, of: rule, target: "t0", position: 0, context: HandlerContext(pointer: point, location: point),
          in: host.engine)
        guard case .returned(.proposal(.move, nil)) = result else { preconditionFailure("\(result)") }
      }
    }
  }
  // Steps go in drags of 1,000, as a person's drags do, so the trace's buffer is reused
  // as it is between drags; starting and ending drags is not timed.
  let step = Workload(name: "droprules pointer step") { count in
    var total = 0.0
    var done = 0
    while done < count {
      let chunk = min(1_000, count - done)
      total +=
        measure(chunk) { chunk in
          for i in 0..<chunk {
            let proposal = try? host.movePointer(to: Point(x: wander(i), y: 5))
            precondition(proposal == .move, "\(String(describing: proposal)) \(host.diagnostics)")
          }
        } * Double(chunk)
      done += chunk
      _ = try? host.cancel()
      _ = try? host.beginDrag(probeDrag)
      _ = try? host.movePointer(to: Point(x: 5, y: 5))
    }
    return total / Double(count)
  }
  return (minimal, floorWorkload, hooked, call, step, host)
}

/// The minimal host with the count hook every budgeted call needs (set every 1,000
/// instructions, as droprules sets it): the least a host that keeps a per-call
/// instruction budget can cost.
func minimalHookedWorkload() throws -> Workload {
  guard let floor = lua_floor_open(benchmarkRule, "box") else { throw BenchmarkError("the C floor did not load") }
  lua_floor_prepare_minimal(floor)
  lua_floor_count_instructions(floor)
  return minimalWorkload(floor, name: "minimal C API call + count hook")
}

/// Calls of the minimal host `floor` (prepared with `lua_floor_prepare_minimal`).
private func minimalWorkload(_ floor: OpaquePointer, name: String) -> Workload {
  Workload(name: name) { count in
    measure(count) { count in
      for i in 0..<count { precondition(lua_floor_minimal_call(floor, wander(i), 5) == 0) }
    }
  }
}

struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// `count` pointer steps to points spread over a 10,000-target grid whose targets have no
/// rule: every step searches the board and finds no target that takes the drag.
func stepAcrossTargets(_ count: Int) throws {
  let host = try hostInDrag(rules: "return {}", board: try grid(targets: 10_000))
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53) * 1000
  }
  for _ in 0..<count { _ = try host.movePointer(to: Point(x: next(), y: next())) }
}

/// `count` pointer steps to random points of a board of `targets` targets of `shape`,
/// with a rule that takes part everywhere: under callgrind with two counts, the
/// difference is what one hit-test (and its step) costs on that board.
func stepsOverShape(_ shape: BoardShape, targets: Int, steps count: Int) throws {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("droprules-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  try "return {}".write(to: directory.appendingPathComponent("none.lua"), atomically: true, encoding: .utf8)
  let json = try JSONValue.parse(scenarioText(shape, targets: targets, rules: "none.lua"))
  let board: Board = try ScenarioDecoder(file: directory.path + "/bench.scenario.json", baseDirectory: directory.path)
    .decode(json, requiresDrag: false).board
  let host = try hostInDrag(rules: "return {}", board: board)
  // Points over the board's whole extent: the frames' bounding box.
  let maxX = board.targets.map(\.frame.maxX).max() ?? 1
  let maxY = board.targets.map(\.frame.maxY).max() ?? 1
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  func next(_ bound: Double) -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53) * bound
  }
  for _ in 0..<count { _ = try host.movePointer(to: Point(x: next(maxX), y: next(maxY))) }
}
