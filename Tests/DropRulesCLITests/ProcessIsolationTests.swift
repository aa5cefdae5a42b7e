import DropRules
import DropRulesHostTestSupport
import DropRulesLua
import DropRulesModel
import DropRulesTestSupport
import Foundation
import Testing

/// Rule files in worker processes (`LuaLimits.workerCommand`, `--isolate`): the same
/// answers as in the host's process, and a stall that no in-process deadline can stop
/// (a collection) stopped at the deadline plus the margin.
@Suite("Rule files in worker processes")
struct ProcessIsolationTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  static func limits(maxTime: Duration = LuaLimits.defaultMaxTime) -> LuaLimits {
    LuaLimits(maxTime: maxTime, workerCommand: [DropRulesBinary.url.path, "worker"])
  }

  /// Chains 40,000 weak-keyed entries per call onto what earlier calls chained: Lua 5.4's
  /// collector settles such chains one link per pass over every ephemeron table, with no
  /// hook running, so one collection outlasts any deadline.
  static let stall = """
    local tables, tail = {}, {}
    return { stall = {
      dropUpdated = function()
        \(chainMore)
        return "move"
      end,
      performDrop = function(info, target) target:insert(info.items) return true end,
    } }
    """

  /// Lua that chains 40,000 more weak-keyed entries onto the chain that `tables` and
  /// `tail` (locals of the rule file) hold.
  static let chainMore = """
    local weak = setmetatable({}, { __mode = "k" })
    tables[#tables + 1] = weak
    local key = tail
    for _ = 1, 40000 do local following = {}; weak[key] = following; key = following end
    tail = key
    """

  /// Counts its calls, in its own Lua state: a restart starts it again.
  static let counter = """
    local calls = 0
    return { counter = {
      dropUpdated = function(info, target)
        calls = calls + 1
        print(calls, target.data.kind, #info.items)
        return "move"
      end,
    } }
    """

  func host(_ files: [(String, String)], limits: LuaLimits, items: [String: [String]] = [:]) throws -> RuleHost {
    var targets = row(["a"], type: "stall", items: items) + row(["c"], type: "counter", items: items)
    targets[1].frame.x = 100
    targets[1].data = ["kind": .string("counter")]
    let host = try RuleHost(limits: limits)
    try host.loadRules(atPaths: try files.map { try directory.write($0.0, $0.1) })
    let known = items.values.flatMap { $0 }.map { DragItem(id: $0, representations: [textRepresentation]) }
    try host.replaceBoard(Board(targets: targets, items: known))
    return host
  }

  let textRepresentation = Representation(type: "public.plain-text", payload: "x")

  @Test("a collection that outlasts the deadline stops the worker, not the host, and the other file reads on")
  func stalledCollection() throws {
    let limits = Self.limits(maxTime: .milliseconds(100))
    let host = try host([("stall.lua", Self.stall), ("counter.lua", Self.counter)], limits: limits)
    let bound = limits.maxTime + LuaLimits.workerMargin
    var slowest = Duration.zero
    var stopped = 0
    try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
    for step in 0..<12 {
      let started = ContinuousClock.now
      try host.movePointer(to: Point(x: 10 + Double(step), y: 10))
      slowest = max(slowest, ContinuousClock.now - started)
      stopped += host.diagnostics.filter { $0.message.contains("worker process was stopped") }.count - stopped
    }
    try host.moveOver("c")
    try host.cancel()
    #expect(stopped > 0, "the chains never stalled a collection past the deadline: \(host.diagnostics.map(\.message))")
    // A step that follows a stop waits for the file to load again, under the same bound.
    #expect(slowest < bound * 2 + .milliseconds(400), "slowest step: \(slowest)")
    #expect(host.printedLines == ["1\tcounter\t1"])
    #expect(host.diagnostics.allSatisfy { $0.limit == .time })
  }

  /// Whether the host stopped a worker since it kept `count` diagnostics.
  func stoppedSince(_ count: Int, in host: RuleHost) -> Bool {
    host.diagnostics.dropFirst(count).contains { $0.message.contains("worker process was stopped") }
  }

  @Test("a drop whose worker is stopped after inserting fails and leaves every item where it was")
  func stoppedDropLosesNothing() throws {
    // Each drop chains 40,000 more entries, in the same state until a stop: one of the
    // drops stalls in a collection, which only the stop ends.
    let stallingDrop = """
      local tables, tail = {}, {}
      return { stall = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, target)
          target:insert(info.items)
          \(Self.chainMore)
          return true
        end,
      } }
      """
    let host = try host(
      [("stall.lua", stallingDrop), ("counter.lua", Self.counter)], limits: Self.limits(maxTime: .milliseconds(100)),
      items: ["c": ["x"]])
    let start = host.board
    for _ in 0..<30 {
      let diagnostics = host.diagnostics.count
      try host.beginDrag(DragRequest(items: [.board("x")]))
      try host.moveOver("a")
      let outcome = try host.drop()
      if stoppedSince(diagnostics, in: host) {
        #expect(outcome == .failed)
        #expect(host.board.target("a")?.items == [])
        #expect(host.board.target("c")?.items == ["x"])
        return
      }
      try host.replaceBoard(start)
    }
    Issue.record("no drop stalled past the deadline in 30 drops: \(host.diagnostics.map(\.message))")
  }

  @Test("a restarted worker starts its file afresh, and the file's rules answer again")
  func restartStartsAfresh() throws {
    let countingStall = """
      local tables, tail, calls = {}, {}, 0
      return { stall = {
        dropUpdated = function()
          calls = calls + 1
          print("call " .. calls)
          -- The first call of a state chains nothing, so it answers at once.
          if calls == 1 then return "move" end
          \(Self.chainMore)
          return "move"
        end,
        performDrop = function() return true end,
      } }
      """
    let host = try host([("stall.lua", countingStall)], limits: Self.limits(maxTime: .milliseconds(100)))
    try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
    for step in 0..<30 {
      let diagnostics = host.diagnostics.count
      try host.movePointer(to: Point(x: 10 + Double(step), y: 10))
      guard stoppedSince(diagnostics, in: host) else { continue }
      let printed = host.printedLines.count
      #expect(try host.movePointer(to: Point(x: 50, y: 10)) != .forbidden, "\(host.lastStep.map { "\($0)" } ?? "")")
      // A fresh state counts from 1; what the stopped call printed went with its process.
      #expect(Array(host.printedLines.dropFirst(printed)) == ["call 1"])
      try host.cancel()
      return
    }
    Issue.record("no call stalled past the deadline in 30 steps: \(host.diagnostics.map(\.message))")
  }

  @Test("a file in a worker changes only targets of its own types, as in the host's process")
  func writesStayOwned() throws {
    let writer = """
      return { stall = { dropUpdated = function(info)
        local ok, err = pcall(function() info.board:target("c"):set("kind", "taken") end)
        print(ok, err and err:match("counter.lua") ~= nil)
        return "move"
      end } }
      """
    let host = try host([("stall.lua", writer), ("counter.lua", Self.counter)], limits: Self.limits())
    try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
    try host.moveOver("a")
    try host.moveOver("c")
    try host.cancel()
    #expect(host.printedLines == ["false\ttrue", "1\tcounter\t1"])
  }

  @Test("a worker that cannot start is a load problem naming the file and the command")
  func workerThatCannotStart() throws {
    let path = try directory.write("counter.lua", Self.counter)
    for command in [["/nonexistent/droprules", "worker"], ["/bin/true"]] {
      let host = try RuleHost(limits: LuaLimits(workerCommand: command))
      let problems = host.loadRulesCollectingProblems(atPaths: [path])
      #expect(problems.count == 1)
      #expect(problems.first?.file == path)
      #expect(problems.first.map { $0.message.contains("worker") } == true, "\(problems)")
    }
  }

  @Test("every bundled scenario gives the same trace with --isolate as without, byte for byte")
  func bundledScenariosAgree() throws {
    let scenarios = try FileManager.default.subpathsOfDirectory(
      atPath: DropRulesBinary.packageRoot.appendingPathComponent("rules").path
    ).filter { $0.hasSuffix(".scenario.json") }.sorted()
    #expect(scenarios.count >= 10)
    for scenario in scenarios {
      let path = "rules/" + scenario
      let plain = try DropRulesBinary.run(["run", "--format", "json", path])
      let isolated = try DropRulesBinary.run(["run", "--isolate", "--format", "json", path])
      #expect(plain.status == 0, "\(path): \(plain.stderr)")
      #expect(isolated.stdout == plain.stdout, "\(path)")
      #expect(isolated.status == plain.status, "\(path): \(isolated.stderr)")
    }
  }

  @Test("serve --isolate answers a drag over the calendar as serve does, answer for answer")
  func serveAgrees() throws {
    let requests = [
      try Serve.request(1, "beginDrag", ["items": ["standup"], "allowedOperations": ["move", "copy"]]),
      try Serve.request(2, "move", ["over": "day-13"]),
      try Serve.request(3, "modifiers", ["modifiers": ["option"]]),
      try Serve.request(4, "drop"),
      try Serve.request(5, "board"),
      try Serve.request(6, "trace"),
    ]
    let scenario = ["rules/calendar/move-to-empty-day.scenario.json"]
    let plain = try Serve.run(scenario, requests: requests)
    let isolated = try Serve.run(scenario + ["--isolate"], requests: requests)
    #expect(try Serve.responses(plain).count == requests.count)
    #expect(isolated.stdout == plain.stdout)
    #expect(isolated.status == 0, "\(isolated.stderr)")
  }

  @Test("droprules test --isolate passes every bundled rule test, and refuses coverage, which it cannot count")
  func bundledTestsPassIsolated() throws {
    let result = try DropRulesBinary.run(["test", "--isolate", "rules/"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(" passed, 0 failed"))
    let coverage = try DropRulesBinary.run(["test", "--isolate", "--coverage", "rules/"])
    #expect(coverage.status == 64)
    #expect(coverage.stderr.contains("--isolate"))
  }

  @Test("a file whose worker was stopped 3 times in a drag fails at once for the rest of it, and runs in the next")
  func stopsPerDragAreBounded() throws {
    let host = try host([("stall.lua", Self.stall)], limits: Self.limits(maxTime: .milliseconds(100)))
    let item = DragItem(id: "n", representations: [textRepresentation])
    try host.beginDrag(DragRequest(items: [.external(item)]))
    var step = 0
    while host.diagnostics.filter({ $0.message.contains("worker process was stopped") }).count < 3, step < 40 {
      try host.movePointer(to: Point(x: 10 + Double(step % 50), y: 10))
      step += 1
    }
    let started = ContinuousClock.now
    try host.movePointer(to: Point(x: 70, y: 10))
    #expect(ContinuousClock.now - started < .milliseconds(50))
    #expect(host.diagnostics.last?.message.contains("stopped 3 times in this drag") == true)
    try host.cancel()
    try host.beginDrag(DragRequest(items: [.external(item)]))
    try host.movePointer(to: Point(x: 10, y: 10))
    #expect(host.diagnostics.last?.message.contains("stopped 3 times") != true)
    try host.cancel()
  }

  @Test("what a file printed in a drag counts against its cap across its worker's restarts")
  func printedOutputSurvivesRestarts() throws {
    // Odd calls print 8 MiB of a 16 MiB cap; even calls chain weak keys until a collection stalls and
    // the worker is stopped. A fresh worker must still count what the drag holds.
    let printer = """
      local tables, tail, calls = {}, {}, 0
      local line = string.rep("p", 8000)
      return { stall = {
        dropUpdated = function()
          calls = calls + 1
          if calls % 2 == 1 then
            for _ = 1, 1024 do print(line) end
          else
            \(Self.chainMore)
          end
          return "move"
        end,
        performDrop = function() return true end,
      } }
      """
    var limits = Self.limits(maxTime: .milliseconds(100))
    limits.maxMemory = 16 << 20
    let host = try host([("stall.lua", printer)], limits: limits)
    try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
    for step in 0..<24 { try host.movePointer(to: Point(x: 10 + Double(step), y: 10)) }
    let printed = host.printedLines.reduce(0) { $0 + LuaRuntime.printedCost(of: $1) }
    try host.cancel()
    #expect(host.diagnostics.contains { $0.message.contains("worker process was stopped") })
    #expect(printed <= limits.maxMemory, "printed \(printed) bytes in one drag")
  }

  @Test("data a file stores reads back the same from a worker: 2.0 stays a float, -0.0 keeps its sign")
  func dataKeepsItsKind() throws {
    let keeper = """
      return { stall = {
        dropUpdated = function(info, target)
          print(math.type(target.data.avg), 1 / (target.data.z or 1), target.data.big, math.type(target.data.int),
            target.data.nested and target.data.nested[1].e, target.data.text)
          return "move"
        end,
        performDrop = function(info, target)
          target:set("avg", 6 / 3)
          target:set("z", -0.0)
          target:set("big", 2^53)
          target:set("int", 7)
          target:set("nested", { { e = 1e300 } })
          target:set("text", "é\u{1F600}\0")
          return true
        end,
      } }
      """
    func run(_ limits: LuaLimits) throws -> ([String], [String: JSONValue]?) {
      let host = try host([("stall.lua", keeper)], limits: limits)
      for _ in 0..<2 {
        try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
        try host.moveOver("a")
        try host.drop()
      }
      return (host.printedLines, host.board.target("a")?.data)
    }
    let inProcess = try run(LuaLimits())
    let isolated = try run(Self.limits())
    #expect(inProcess.0.last?.hasPrefix("float\t-inf\t") == true, "\(inProcess.0)")
    #expect(isolated.0 == inProcess.0)
    #expect(isolated.1 == inProcess.1)
  }

  @Test("a worker whose start never answers fails the call at the deadline, and counts as a stop")
  func startThatNeverAnswers() throws {
    // The first start is droprules' worker; every later one hangs before it reads a byte.
    let mark = directory.url.appendingPathComponent("started").path
    let script =
      "if [ -e '\(mark)' ]; then exec sleep 60; fi; touch '\(mark)'; exec '\(DropRulesBinary.url.path)' worker"
    let limits = LuaLimits(maxTime: .milliseconds(100), workerCommand: ["/bin/sh", "-c", script])
    let host = try host([("stall.lua", Self.stall)], limits: limits)
    try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
    var step = 0
    while !host.diagnostics.contains(where: { $0.message.contains("worker process was stopped") }), step < 30 {
      try host.movePointer(to: Point(x: 10 + Double(step), y: 10))
      step += 1
    }
    // Two starts that hang, then calls that fail at once.
    for _ in 0..<3 { try host.movePointer(to: Point(x: 50, y: 10)) }
    let messages = host.diagnostics.map(\.message)
    try host.cancel()
    #expect(messages.filter { $0.contains("failed to load it: it did not answer in time") }.count == 2, "\(messages)")
    #expect(messages.last?.contains("stopped 3 times in this drag") == true, "\(messages)")
  }

  @Test("NaN, infinities and an 8 MB answer cross to and from a worker as they stay in the host's process")
  func hostileValuesAgree() throws {
    let hostile = """
      local calls = 0
      return { stall = {
        dropUpdated = function(info, target)
          calls = calls + 1
          print(0/0, math.huge, -math.huge, info.location.x)
          if calls == 1 then return { operation = "move", index = 0/0 } end
          if calls == 2 then return { operation = "move", index = math.huge } end
          if calls == 3 then return string.rep("x", 8 << 20) end
          return { operation = "move", index = -math.huge }
        end,
        performDrop = function() return true end,
      } }
      """
    func run(_ limits: LuaLimits) throws -> ([String], [String], [Proposal]) {
      let host = try host([("stall.lua", hostile)], limits: limits)
      try host.beginDrag(DragRequest(items: [.external(DragItem(id: "n", representations: [textRepresentation]))]))
      var proposals: [Proposal] = []
      for step in 0..<4 { proposals.append(try host.movePointer(to: Point(x: 10 + Double(step), y: 10))) }
      try host.cancel()
      return (host.printedLines, host.diagnostics.map(\.message), proposals)
    }
    let inProcess = try run(LuaLimits())
    let isolated = try run(Self.limits())
    #expect(isolated.0 == inProcess.0)
    #expect(isolated.1 == inProcess.1)
    #expect(isolated.2 == inProcess.2)
  }
}
