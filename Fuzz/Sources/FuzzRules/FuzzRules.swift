// libFuzzer target: a hostile rule file beside a well-behaved one.
//
// Each input is the source of `attacker.lua`, loaded into one host with `witness.lua`, a
// fixed file that owns the `shelf` targets. The attacker owns `fuzz` targets (and any
// other type it names). Three drags run on a board of both:
//
// 1. `w` from shelf `s1` to shelf `s2`: only the witness's handlers run. Its answers,
//    outcome, the shelves' items and the data it stored must be what they are with a
//    harmless attacker: the attacker's top level ran first and must not have changed
//    what the witness sees (its globals, libraries, random numbers, types).
// 2. `x` from `a` (fuzz) over `b` (fuzz) and onto `s1`: every handler of the attacker runs.
// 3. `w` back from `s2` to `s1`: the witness's again, which must still answer as it did.
//
// After every drag no item is on the board twice and the witness's item is still on a
// shelf (the attacker may take its own items off the board, never the witness's), and an
// input's work must end well within libFuzzer's -timeout: every call has a deadline. Any diagnostic is an answer; a crash,
// a trap, a broken invariant or a stall is a finding.
import DropRules
import Foundation

/// Small limits, so that each input's work stays bounded.
let limits = LuaLimits(maxInstructions: 200_000, maxMemory: 8 << 20, maxTime: .milliseconds(100))

/// The longest an input may take, calls and collector together: three drags of a few
/// calls, each stopped at 100 ms.
let maximumSeconds = 5.0

let witnessSource = """
  math.randomseed(7)
  local seen = {}
  return {
    shelf = {
      validateDrop = function(info) return #info.items > 0 end,
      dropUpdated = function(info, target)
        seen[#seen + 1] = target.id
        return string.upper("move"):lower()
      end,
      performDrop = function(info, target)
        target:insert(info.items)
        target:set("lucky", math.random(1, 1000000))
        target:set("text", table.concat({ "a", "b" }, ",") .. tostring(#seen > 0))
        return true
      end,
    },
  }
  """

/// A folder of this process's own, holding the two rule files.
let folder: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-rules-\(getpid())")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  try? Data(witnessSource.utf8).write(to: url.appendingPathComponent("witness.lua"))
  return url
}()

let board: Board = {
  func frame(_ x: Double) -> Rect { Rect(x: x, y: 0, width: 100, height: 100) }
  let items = ["x", "y", "w"].map {
    DragItem(id: $0, name: $0.uppercased(), representations: [.init(type: "public.plain-text", payload: $0)])
  }
  let targets = [
    DropTarget(id: "a", type: "fuzz", frame: frame(0), items: ["x", "y"]),
    DropTarget(id: "b", type: "fuzz", frame: frame(100)),
    DropTarget(id: "s1", type: "shelf", frame: frame(200), items: ["w"]),
    DropTarget(id: "s2", type: "shelf", frame: frame(300)),
  ]
  do { return try Board(targets: targets, items: items) } catch { fatalError("the fuzz board: \(error)") }
}()

/// What one drag showed: its answers in order, then where the items are and what the
/// shelves hold.
struct DragRecord: Equatable, CustomStringConvertible {
  var results: [String] = []
  var shelves: String = ""
  var description: String { "\(results) \(shelves)" }
}

func shelves(_ host: RuleHost) -> String {
  ["s1", "s2"].map { id in
    let target = host.board.target(id)
    let data = (target?.data ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return "\(id): \(target?.items ?? []) \(data)"
  }.joined(separator: "; ")
}

func drag(_ host: RuleHost, _ items: [ItemID], _ steps: [DragStep], allowed: Set<DragOperation>? = nil) -> DragRecord {
  var record = DragRecord()
  do {
    let start = try host.beginDrag(DragRequest(items: items.map { .board($0) }, allowedOperations: allowed))
    record.results.append("refused \(start.refused)")
    for step in steps {
      switch try host.perform(step) {
      case .proposal(let proposal): record.results.append(proposal.rawValue)
      case .outcome(let outcome): record.results.append(outcome.rawValue)
      }
    }
  } catch {
    record.results.append("error \(error)")
    if host.isDragging { _ = try? host.cancel() }
  }
  record.shelves = shelves(host)
  return record
}

/// No item is on two targets or twice on one, and the witness's item is on a shelf: a
/// rule may take its own items off the board (to the trash, to another app), never one
/// of another file's.
func checkItems(_ host: RuleHost, after name: String) {
  let placed = host.board.placedItems
  if Set(placed).count != placed.count { fatalError("after \(name), an item is on the board twice: \(placed)") }
  let shelved = host.board.items(in: "s1") + host.board.items(in: "s2")
  if !shelved.contains("w") { fatalError("after \(name), the witness's item w is on no shelf: \(placed)") }
}

let witnessOnly: [DragStep] = [.over("s2", index: nil), .at(Point(x: 350, y: 50)), .drop]
let witnessBack: [DragStep] = [.over("s1", index: nil), .drop]
let attackerSteps: [DragStep] = [
  .over("b", index: nil), .at(Point(x: 150, y: 20)), .modifiers([.option]), .at(Point(x: 160, y: 30)),
  .over("s1", index: nil), .over("b", index: 0), .drop,
]

/// Runs the three drags with `attacker` as the attacker's source.
func run(_ attacker: Data) -> (first: DragRecord, last: DragRecord, host: RuleHost)? {
  let attackerURL = folder.appendingPathComponent("attacker.lua")
  guard (try? attacker.write(to: attackerURL)) != nil, let host = try? RuleHost(limits: limits) else { return nil }
  let problems = host.loadRulesCollectingProblems(atPaths: [
    folder.appendingPathComponent("witness.lua").path, attackerURL.path,
  ])
  for problem in problems { _ = problem.description }
  // A type the attacker also claimed fails the load of both; nothing to compare then.
  guard host.rules.rule(for: "shelf") != nil, (try? host.replaceBoard(board)) != nil else { return nil }
  let first = drag(host, ["w"], witnessOnly)
  checkItems(host, after: "the witness's drag")
  _ = drag(host, ["x"], attackerSteps)
  checkItems(host, after: "the attacker's drag")
  _ = drag(host, ["x", "y"], attackerSteps, allowed: [.copy])
  checkItems(host, after: "the attacker's copy drag")
  let last = drag(host, ["w"], witnessBack)
  checkItems(host, after: "the witness's second drag")
  return (first, last, host)
}

/// The witness's drags with a harmless attacker.
let reference: (first: DragRecord, last: DragRecord) = {
  guard let result = run(Data("return { fuzz = {} }".utf8)) else { fatalError("the reference run failed") }
  return (result.first, result.last)
}()

/// `FUZZ_TOLERATE=weak-keys` skips inputs that name `__mode`: weak-keyed chains make Lua's
/// collector quadratic, which no limit can stop (docs/isolation.md), so every run would
/// stop at that known finding.
let tolerateWeakKeys = ProcessInfo.processInfo.environment["FUZZ_TOLERATE", default: ""].split(separator: ",")
  .contains("weak-keys")

/// Why the witness's drags differ from the reference run's, or nil when they do not.
func witnessDifference(_ result: (first: DragRecord, last: DragRecord, host: RuleHost)) -> String? {
  if result.first != reference.first {
    return "the attacker changed the witness's first drag:\n  got      \(result.first)\n  expected \(reference.first)"
  }
  // The second drag's shelves depend on what the attacker's drag dropped on s1; its
  // answers do not.
  if result.last.results != reference.last.results {
    return "the attacker changed the witness's answers:\n  got      \(result.last)\n  expected \(reference.last)"
  }
  return nil
}

/// One fuzz input: the attacker's rule file, run beside the witness.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Data(bytes: data, count: size)
  if tolerateWeakKeys, input.range(of: Data("__mode".utf8)) != nil { return 0 }
  let started = Date()
  guard let result = run(input) else { return 0 }
  let seconds = Date().timeIntervalSince(started)
  if seconds > maximumSeconds { fatalError("the input took \(seconds) s, past every call's deadline") }
  if let difference = witnessDifference(result) {
    // A witness call can pass its 100 ms deadline when the machine is busy (under
    // AddressSanitizer, beside other work): a finding is one that happens again.
    let witnessTimedOut = result.host.diagnostics.contains {
      $0.file?.hasSuffix("witness.lua") == true && $0.message.contains("time limit")
    }
    guard witnessTimedOut, let again = run(input), witnessDifference(again) == nil else {
      let diagnostics = result.host.diagnostics.map { "\n  \($0.description)" }.joined()
      fatalError(difference + "\n  diagnostics:" + diagnostics)
    }
  }
  for diagnostic in result.host.diagnostics { _ = diagnostic.description }
  return 0
}
