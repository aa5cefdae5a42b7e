import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// What a red team did to `droprules fuzz`, each kept as a test: a property that makes a
/// scenario, frames at the ends of the doubles, a pipe and a link beside the rules,
/// modules in a lib folder, two rule files of one name, a very long scenario name.
@Suite("droprules fuzz under attack")
struct FuzzRobustnessTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func fuzz(_ scenarioPath: String, extraRules: [String] = [], testFiles: [String] = [], drags: Int = 200) throws
    -> Fuzzer.Report
  {
    let fuzzer = try Fuzzer(
      scenario: try ScenarioDecoder.load(path: scenarioPath), runner: ScenarioRunner(trustedRuleRoots: extraRules),
      extraRules: extraRules,
      testFiles: testFiles)
    var options = Fuzzer.Options()
    options.drags = drags
    options.seed = 1
    options.outputDirectory = directory.path + "/out"
    return try fuzzer.run(options)
  }

  static let box = """
    return { box = {
      dropUpdated = function(info)
        if not info.allowedOperations.move then return "forbidden" end
        return "move"
      end,
      performDrop = function(info, box) box:insert(info.items) return true end,
    } }
    """

  /// A source's `dragEnded` that removes its own row that opens a target, or moves it
  /// within the source, carries the target with the row, as the host allows.
  @Test(
    "a source whose dragEnded removes or moves its own row keeps the target the row opens with it: no failure",
    arguments: ["source:remove(item)", "source:insert(item, 1)"])
  func sourceChangesAnOpenerRow(_ change: String) throws {
    try directory.write(
      "rows.lua",
      """
      return { box = {
        dropUpdated = function() return "forbidden" end,
        performDrop = function() return true end,
        dragEnded = function(info, source)
          for _, item in ipairs(source.items) do if item.id == "frow" then \(change) end end
        end,
      } }
      """)
    let scenario = try directory.write(
      "rows.scenario.json",
      #"""
      {"rules": ["rows.lua"], "board": {"targets": [
        {"id": "a", "type": "box", "frame": [0, 0, 100, 300],
         "items": [{"id": "x", "name": "X"}, {"id": "frow", "name": "F", "opens": "f"}]},
        {"id": "f", "type": "box", "frame": [10, 200, 80, 80], "items": [{"id": "y"}]},
        {"id": "b", "type": "box", "frame": [100, 0, 100, 300], "items": []}]},
       "drag": {"items": ["x"]}, "steps": [{"at": [150, 50]}, "cancel"]}
      """#)
    let report = try fuzz(scenario)
    #expect(report.finding == nil, "\(report.finding?.failure.detail ?? "")")
  }

  /// A cancelled drag of `x` from `a` and `z` from `b`, ending on `after`; `frow`, in
  /// `a`, opens `f`.
  static func cancelledRun(after: Board) throws -> FuzzChecker.Run {
    FuzzChecker.Run(
      drag: FuzzDrag(request: DragRequest(items: [.board("x"), .board("z")]), steps: [.cancel]),
      before: try board(a: ["x", "frow"], b: ["z"], fParent: "a"), after: after, trace: [], outcome: .cancelled)
  }

  /// Boxes `a`, `b` and `c`, `a` and `b` holding `inA` and `inB`, and `f` with the parent
  /// `parent`; the row `frow`, which opens `f`, is in one of them or off the board.
  static func board(a inA: [ItemID], b inB: [ItemID], fParent parent: TargetID?) throws -> Board {
    var board = try Board(
      targets: row(["a", "b", "c"], items: ["a": inA, "b": inB])
        + [DropTarget(id: "f", type: "box", frame: Rect(x: 10, y: 50, width: 20, height: 20))],
      items: [textItem("x"), textItem("z"), DragItem(id: "frow", opens: "f")])
    // Set by hand: no change the host allows gives a parent its opener row does not explain.
    board.targets[3].parent = parent
    return board
  }

  @Test(
    "after a cancelled drag, a target's parent may change only to where its opener row in a source went",
    arguments: [
      // The row moved to the other source (f went with it), left the board, or stayed.
      (["x"], ["z", "frow"], "b", false), (["x"], ["z"], nil, false), (["frow", "x"], ["z"], "a", false),
      // f's parent changed, but not to the row's container: a host bug the check must report.
      (["x"], ["z", "frow"], "c", true), (["x"], ["z"], "b", true), (["frow", "x"], ["z"], "c", true),
      (["frow", "x"], ["z"], nil, true),
    ] as [(inA: [ItemID], inB: [ItemID], parent: TargetID?, reported: Bool)])
  func parentFollowsOnlyTheOpenerRow(_ after: (inA: [ItemID], inB: [ItemID], parent: TargetID?, reported: Bool))
    throws
  {
    let checker = FuzzChecker(rules: RuleSet(), authorProperties: nil)
    let run = try Self.cancelledRun(after: Self.board(a: after.inA, b: after.inB, fParent: after.parent))
    let failure = checker.cancelledDragsChangeNothing(run)
    #expect((failure != nil) == after.reported, "\(failure?.detail ?? "no failure")")
    if after.reported {
      #expect(
        failure?.detail.hasSuffix("f changed: parent a -> \(after.parent ?? "none")") == true,
        "\(failure?.detail ?? "")")
    }
  }

  @Test("a property that makes a scenario of its own runs, where the fuzzer had freed what it needs")
  func propertyMakesAScenario() throws {
    try directory.write("box.lua", Self.box)
    let test = try directory.write(
      "box_test.lua",
      """
      property("a scenario inside a property", function(board)
        local sim = scenario { board = { targets = { { id = "z", type = "box", frame = { 0, 0, 1, 1 } } } } }
        return #sim:items("z") == 0
      end)
      """)
    let scenario = try directory.write(
      "s.scenario.json",
      #"{"rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#
    )
    let report = try fuzz(scenario, testFiles: [test], drags: 50)
    #expect(report.finding == nil, "\(report.finding?.failure.description ?? "")")
    #expect(report.authorProperties == 1)
  }

  @Test("a property that drags and drops in a scenario of its own ends, with no check inside the check")
  func propertyDrops() throws {
    try directory.write("box.lua", Self.box)
    let test = try directory.write(
      "box_test.lua",
      """
      property("drops in its own scenario", function(board)
        local sim = scenario { board = { targets = {
          { id = "p", type = "box", frame = { 0, 0, 10, 10 }, items = { { id = "q" } } },
          { id = "r", type = "box", frame = { 10, 0, 10, 10 } },
        } } }
        local drag = sim:drag({ "q" })
        drag:over("r")
        return drag:drop() == "performed"
      end)
      """)
    let scenario = try directory.write(
      "s.scenario.json",
      #"{"rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#
    )
    let report = try fuzz(scenario, testFiles: [test], drags: 30)
    #expect(report.finding == nil, "\(report.finding?.failure.description ?? "")")
  }

  @Test("frames at -1.7e308 and 1.7e308 are fuzzed, not a trap on an infinite range")
  func farFrames() throws {
    try directory.write("box.lua", Self.box)
    let scenario = try directory.write(
      "s.scenario.json",
      #"{"rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [-1.7e308, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "box", "frame": [1.7e308, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#
    )
    let report = try fuzz(scenario, drags: 300)
    #expect(report.drags == 300)
  }

  @Test(
    "the written scenario copies regular Lua files only (no pipe, no link out), lib modules, and two rule files of one name"
  )
  func writtenRules() throws {
    try directory.write("outside/secret.lua", "return 'secret'")
    try directory.write("rules/lib/util.lua", "return { verdict = function() return 'move' end }")
    try directory.write(
      "rules/box.lua",
      """
      local util = require("lib.util")
      return { box = {
        dropUpdated = function() return util.verdict() end,
        performDrop = function(info, box) box:insert(info.items) return true end,
      } }
      """)
    // A second box.lua, elsewhere, whose rule for another type always raises.
    try directory.write(
      "other/box.lua", #"return { shelf = { dropUpdated = function() error("other rules broke") end } }"#)
    #expect(mkfifo(directory.path + "/rules/pipe.lua", 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/rules/link.lua", withDestinationPath: directory.path + "/outside/secret.lua")
    let scenario = try directory.write(
      "rules/s.scenario.json",
      #"{"rules": ["box.lua"], "board": {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}, {"id": "b", "type": "shelf", "frame": [100, 0, 100, 100]}]}, "drag": {"items": ["x"]}, "steps": []}"#
    )
    let report = try fuzz(scenario, extraRules: [directory.path + "/other/box.lua"])
    let finding = try #require(report.finding)
    #expect(finding.failure.detail.contains("other rules broke"))
    let file = try #require(finding.file, Comment(rawValue: finding.writeError ?? ""))
    let folder = (file as NSString).deletingLastPathComponent
    let copied = Set((FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? [])
    #expect(copied.contains("rules-1/box.lua") && copied.contains("rules-1/lib/util.lua"), "\(copied.sorted())")
    #expect(copied.contains("rules-2/box.lua"))
    #expect(!copied.contains("rules-1/pipe.lua") && !copied.contains("rules-1/link.lua"), "\(copied.sorted())")
    // Replayed by itself, with its copies, it breaks the same property.
    let again = try Fuzzer.replay(try ScenarioDecoder.load(path: file), runner: ScenarioRunner())
    #expect(again?.property == finding.failure.property)
    #expect(again?.detail.contains("other rules broke") == true)
  }

  @Test("a very long or odd scenario name gives a short folder name that is neither hidden nor an option")
  func folderNames() {
    #expect(FuzzScenarioWriter.slug(String(repeating: "M", count: 240), limit: 60).count == 60)
    #expect(FuzzScenarioWriter.slug("..", limit: 60) == "scenario")
    #expect(FuzzScenarioWriter.slug("-rf", limit: 60) == "rf")
    #expect(FuzzScenarioWriter.slug("with space ü", limit: 60) == "with-space--")
    #expect(FuzzReportText.shellQuoted("out/a b/failure.scenario.json") == "'out/a b/failure.scenario.json'")
    #expect(FuzzReportText.shellQuoted("out/a/failure.scenario.json") == "out/a/failure.scenario.json")
  }

  @Test("many frames set at once move the frame generation once, so hit-testing is rebuilt once")
  func framesAtOnce() throws {
    let targets = (0..<2_000).map {
      DropTarget(id: "t\($0)", type: "box", frame: Rect(x: Double($0), y: 0, width: 1, height: 1))
    }
    var board = try Board(targets: targets, items: [])
    let before = board.frameGeneration.value
    try board.setFrames(
      Dictionary(uniqueKeysWithValues: targets.map { ($0.id, Rect(x: 0, y: 0, width: 2, height: 2)) }))
    #expect(board.frameGeneration.value == before + 1)
    #expect(throws: BoardError.unknownTarget("nope")) {
      try board.setFrames([
        "t1": .init(x: 5, y: 5, width: 1, height: 1), "nope": .init(x: 0, y: 0, width: 1, height: 1),
      ])
    }
    #expect(board.target("t1")?.frame == Rect(x: 0, y: 0, width: 2, height: 2), "all or none")
  }
}
