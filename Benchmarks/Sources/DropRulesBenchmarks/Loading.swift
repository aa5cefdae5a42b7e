import DropRules
import DropRulesTools
import Foundation

/// Loading boards from scenario JSON text: the cost per target must stay flat from 1,000
/// to 100,000 targets whatever the shape, and a 100,000-target scenario must load end to
/// end (parse, decode, a new host with a trivial rule, the board) well under a second.

/// A board shape: the JSON of target `index` of `count`.
struct BoardShape: Sendable {
  let name: String
  let target: @Sendable (_ index: Int, _ count: Int) -> String

  /// Targets in a grid of 10 x 10 frames, no parents.
  static let flat = BoardShape(name: "flat grid") { index, _ in
    #"{"id": "t\#(index)", "type": "box", "frame": [\#(index % 300 * 10), \#(index / 300 * 10), 10, 10]}"#
  }

  /// Each target the child of the one before, its frame just inside its parent's (nested
  /// folders, taken to the extreme).
  static let chain = BoardShape(name: "parent chain") { index, _ in
    let inset = Double(index) * 0.001
    let parent = index > 0 ? #", "parent": "t\#(index - 1)""# : ""
    return
      #"{"id": "t\#(index)", "type": "box", "frame": [\#(inset), \#(inset), \#(1000 - 2 * inset), \#(1000 - 2 * inset)]\#(parent)}"#
  }

  /// Columns of 50 cards, each card the child of its column (a kanban board).
  static let columns = BoardShape(name: "columns of cards") { index, _ in
    let column = index / 51
    let x = column % 100 * 110
    let y = column / 100 * 1100
    guard index % 51 != 0 else {
      return #"{"id": "c\#(column)", "type": "column", "frame": [\#(x), \#(y), 100, 1040], "itemExtent": 20}"#
    }
    let card = index % 51 - 1
    return
      #"{"id": "c\#(column)-\#(card)", "type": "card", "frame": [\#(x + 5), \#(y + 20 + card * 20), 90, 18], "parent": "c\#(column)"}"#
  }
}

extension BoardShape {
  /// The shape a command line names: `flat`, `chain` or `columns`.
  static func named(_ name: String) -> BoardShape? {
    ["flat": BoardShape.flat, "chain": .chain, "columns": .columns][name]
  }
}

/// Loads a board of `count` targets `times` times into one host: run under callgrind
/// with two values of `times`, the difference is what loads cost, setup cancelled out.
func loadRepeatedly(_ shape: BoardShape, targets count: Int, times: Int) throws {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("droprules-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  try "return { box = {} }".write(
    to: directory.appendingPathComponent("trivial.lua"), atomically: true, encoding: .utf8)
  let host = try RuleHost()
  try host.loadRules(atPaths: [directory.appendingPathComponent("trivial.lua").path])
  let text = scenarioText(shape, targets: count, rules: "trivial.lua")
  for _ in 0..<times { _ = try load(text, directory: directory.path, into: host) }
}

/// Scenario JSON text of `count` targets of `shape`, naming `rules`.
func scenarioText(_ shape: BoardShape, targets count: Int, rules: String) -> String {
  var text = #"{"rules": ["\#(rules)"], "board": {"targets": ["#
  text.reserveCapacity(count * 110)
  for index in 0..<count {
    if index > 0 { text += ",\n" }
    text += shape.target(index, count)
  }
  return text + "]}}"
}

/// Milliseconds of each part of loading one scenario text.
struct LoadTimes {
  var parse = 0.0
  var decode = 0.0
  var host = 0.0
  var total: Double { parse + decode + host }
}

/// Loads scenario `text` as `droprules run` does: parse, decode (with the board), then a
/// new host with the scenario's rule and board, or with `host` given, only its board.
func load(_ text: String, directory: String, into host: RuleHost? = nil) throws -> LoadTimes {
  var times = LoadTimes()
  var start = DispatchTime.now().uptimeNanoseconds
  func lap() -> Double {
    let now = DispatchTime.now().uptimeNanoseconds
    defer { start = now }
    return Double(now - start) / 1e6
  }
  let json = try JSONValue.parse(text)
  times.parse = lap()
  let scenario = try ScenarioDecoder(file: directory + "/bench.scenario.json", baseDirectory: directory)
    .decode(json, requiresDrag: false)
  times.decode = lap()
  if let host {
    try host.replaceBoard(scenario.board)
  } else {
    _ = try ScenarioRunner().makeHost(for: scenario)
  }
  times.host = lap()
  return times
}

/// Prints load time per target for each shape and size, the sizes alternated within each
/// round, and the end-to-end time of the largest flat scenario.
func runLoadingBenchmark(sizes: [Int] = [1_000, 10_000, 100_000], rounds: Int = 7) throws {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("droprules-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let rule = "return { box = { performDrop = function() return true end } }"
  try rule.write(to: directory.appendingPathComponent("trivial.lua"), atomically: true, encoding: .utf8)
  let host = try RuleHost()
  try host.loadRules(atPaths: [directory.appendingPathComponent("trivial.lua").path])

  print(
    "\nloading scenario JSON into a host (parse, decode, board into the host), ns per target,"
      + " median of \(rounds) rounds, sizes alternated, \(sizes.last ?? 0) targets loaded per measurement")
  let header = sizes.map { String(format: "%9d", $0) }.joined()
  print("  shape             \(header)   ratio \(sizes.last ?? 0) / \(sizes.first ?? 0)")
  for shape in [BoardShape.flat, .chain, .columns] {
    let texts = sizes.map { scenarioText(shape, targets: $0, rules: "trivial.lua") }
    _ = try load(texts[0], directory: directory.path, into: host)  // warm up
    var perTarget: [[Double]] = Array(repeating: [], count: sizes.count)
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? Array(sizes.indices) : sizes.indices.reversed()
      for index in order {
        // Every measurement loads as many targets (smaller boards more times), so each
        // lasts long enough to time and sees the machine for as long.
        let repeats = max(1, (sizes.last ?? 1) / sizes[index])
        var milliseconds = 0.0
        for _ in 0..<repeats { milliseconds += try load(texts[index], directory: directory.path, into: host).total }
        perTarget[index].append(milliseconds * 1e6 / Double(sizes[index] * repeats))
      }
    }
    let medians = perTarget.map(median)
    let row = medians.map { String(format: "%9.0f", $0) }.joined()
    print(
      "  \(shape.name.padding(toLength: 16, withPad: " ", startingAt: 0))  \(row)   "
        + String(format: "%.2f", (medians.last ?? 0) / (medians.first ?? 1)))
  }

  let largest = sizes.last ?? 100_000
  let text = scenarioText(.flat, targets: largest, rules: "trivial.lua")
  let runs = try (0..<rounds).map { _ in try load(text, directory: directory.path) }
  let byTotal = runs.sorted { $0.total < $1.total }
  let middle = byTotal[byTotal.count / 2]
  print(
    String(
      format:
        "end to end, %d flat targets from %.1f MB of JSON text to a host with a trivial rule: %.0f ms (median of %d)",
      largest, Double(text.utf8.count) / 1e6, middle.total, rounds))
  print(
    String(
      format: "  parse %.0f ms, decode and board %.0f ms, new host with rule and board %.0f ms", middle.parse,
      middle.decode, middle.host))
}
