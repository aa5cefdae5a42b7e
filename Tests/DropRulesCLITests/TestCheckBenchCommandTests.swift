import DropRulesTestSupport
import Foundation
import Testing

@Suite("droprules test, check, bench and help")
struct TestCheckBenchCommandTests {
  @Test("the bundled rules pass and the output ends with the summary line")
  func bundledRulesPass() throws {
    let result = try DropRulesBinary.run(["test", "rules/"])
    #expect(result.status == 0, "\(result.stdout)")
    let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    #expect(last.hasSuffix(" passed, 0 failed"))
  }

  @Test("a failing test exits 1, shows expected and actual and the line; the others still run")
  func failingTest() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", "return { box = { performDrop = function() return true end } }")
    try scratch.write(
      "box_test.lua",
      """
      local function sim()
        return scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end
      test("wrong on purpose", function()
        local drag = sim():drag({ { id = "x" } })
        expect(drag:over("a")):toBe("move")
      end)
      test("right", function()
        expect(sim():drag({ { id = "x" } }):over("a")):toBe("copy")
      end)
      """)
    let result = try DropRulesBinary.run(["test", scratch.url.path])
    #expect(result.status == 1)
    #expect(result.stdout.contains("box_test.lua:6: expected \"move\", got \"copy\""))
    #expect(result.stdout.hasSuffix("1 passed, 1 failed\n"))
  }

  @Test("a test file that does not load is reported, counted and exits 2")
  func brokenTestFile() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("broken_test.lua", "test('x', function() end\n")
    let result = try DropRulesBinary.run(["test", scratch.url.path])
    #expect(result.status == 2)
    #expect(result.stdout.contains("ERROR"))
    #expect(result.stdout.hasSuffix("0 passed, 1 failed\n"))
  }

  @Test("tap and junit formats")
  func formats() throws {
    let tap = try DropRulesBinary.run(["test", "--format", "tap", "rules/calendar"])
    #expect(tap.stdout.hasPrefix("TAP version 13\n1.."))
    let junit = try DropRulesBinary.run(["test", "--format", "junit", "rules/calendar"])
    #expect(junit.stdout.contains("<testsuites name=\"droprules\""))
    #expect(junit.status == 0)
  }

  @Test("coverage lists rule files with uncovered lines")
  func coverage() throws {
    let result = try DropRulesBinary.run(["test", "--coverage", "rules/calendar"])
    #expect(result.stdout.contains("coverage\n  rules/calendar/calendar.lua"))
  }

  @Test("check is clean on the bundled rules")
  func checkClean() throws {
    let result = try DropRulesBinary.run(["check", "rules/"])
    #expect(result.status == 0, "\(result.stdout)")
  }

  @Test("check reports typos, non-functions and undeclared types as file:line")
  func checkProblems() throws {
    let scratch = try TemporaryDirectory()
    let path = try scratch.write(
      "bad.lua",
      """
      return {
        box = {
          accepts = { "com.example.nowhere" },
          dropUpdate = function() return "move" end,
          performDrop = true,
        },
      }
      """)
    let result = try DropRulesBinary.run(["check", path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains("\(path):4: unknown handler 'dropUpdate' in the rule for 'box'; did you mean dropUpdated?")
    )
    #expect(result.stdout.contains("\(path):5: performDrop of 'box' must be a function, got boolean"))
    #expect(result.stdout.contains("\(path):3: accepted type 'com.example.nowhere'"))
  }

  @Test("check knows the source handlers and suggests them for typos")
  func checkSourceHandlers() throws {
    let scratch = try TemporaryDirectory()
    let path = try scratch.write(
      "source.lua",
      """
      return {
        shelf = {
          canDrag = function() return true end,
          dragOperation = function() return { "copy" } end,
          dragEnd = function() end,
          dragEnded = 3,
        },
      }
      """)
    let result = try DropRulesBinary.run(["check", path])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "\(path):4: unknown handler 'dragOperation' in the rule for 'shelf'; did you mean dragOperations?"))
    #expect(
      result.stdout.contains("\(path):5: unknown handler 'dragEnd' in the rule for 'shelf'; did you mean dragEnded?"))
    #expect(result.stdout.contains("\(path):6: dragEnded of 'shelf' must be a function, got number"))
    #expect(!result.stdout.contains("canDrag"))
  }

  @Test("bench reports the contract's JSON keys")
  func bench() throws {
    let result = try DropRulesBinary.run([
      "bench", "rules/calendar/move-to-empty-day.scenario.json", "--iterations", "20", "--format", "json",
    ])
    #expect(result.status == 0)
    let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    for key in ["calls", "nsPerCall", "p50Ns", "p99Ns", "callsPerSecond", "steps", "nsPerStep", "timerOverheadNs"] {
      #expect(report?[key] != nil, "\(key)")
    }
    #expect(report?["calls"] as? Int == 100)
    #expect(report?["steps"] as? Int == 60)
  }

  @Test("each scenario{} of a test is a rule host that counts against the test's memory cap")
  func scenariosCountAgainstTheCap() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", "return { box = { dropUpdated = function() return 'move' end } }")
    try scratch.write(
      "box_test.lua",
      """
      test("many simulations", function()
        local kept = {}
        for i = 1, 20000 do
          kept[i] = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
        end
      end)
      """)
    let result = try DropRulesBinary.run(["test", scratch.url.path, "--max-memory", "\(16 << 20)"])
    #expect(result.status == 1)
    // Raised by the test's own next allocation or by the next scenario{}, whichever
    // comes first once the hosts fill the cap.
    #expect(result.stdout.contains("box_test.lua:4: memory limit of \(16 << 20) bytes exceeded"))
  }

  @Test("a test's simulations share its memory cap as they grow after they were made")
  func growingSimulationsShareTheCap() throws {
    let scratch = try TemporaryDirectory()
    // Each hover keeps 1 MiB more in the rule file's state: alone, a simulation stays
    // under the 8 MiB cap for 7 hovers; four of them at once cannot.
    try scratch.write(
      "box.lua",
      """
      local kept = {}
      return { box = { dropUpdated = function()
        kept[#kept + 1] = string.rep("k", 1 << 20) .. #kept
        return "move"
      end } }
      """)
    try scratch.write(
      "box_test.lua",
      """
      test("four growing simulations", function()
        local outcomes = {}
        for s = 1, 4 do
          local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
          local drag = sim:drag({ { id = "x" } })
          for hover = 1, 5 do outcomes[#outcomes + 1] = drag:over("a") end
          local errors = sim.errors
          if #errors > 0 then error("simulation " .. s .. ": " .. errors[1].message, 0) end
        end
      end)
      """)
    let result = try DropRulesBinary.run(["test", scratch.url.path, "--max-memory", "\(8 << 20)"])
    #expect(result.status == 1, "\(result.stdout)")
    // The third simulation's rule runs out first: what the first two keep counts too.
    #expect(result.stdout.contains("memory limit of \(8 << 20) bytes exceeded"), "\(result.stdout)")
    let alone = try DropRulesBinary.run(
      ["test", scratch.url.path, "--max-memory", "\(64 << 20)"])
    #expect(alone.status == 0, "\(alone.stdout)")
  }

  @Test("the watchdog watches a test's own code again after the test drove a simulation")
  func watchdogAfterSimulation() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", "return { box = { dropUpdated = function() return 'move' end } }")
    // After the simulation's call (watched, then done), a loop of long instructions in
    // the test itself: 16 MiB strings of NUL bytes, compared piece by piece.
    try scratch.write(
      "box_test.lua",
      """
      test("long instructions after a simulation", function()
        local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
        sim:drag({ { id = "x" } }):over("a")
        local s = string.rep("\\0", 16 << 20)
        local t = s .. ""
        for _ = 1, 1000 do local _ = s < t end
      end)
      """)
    let started = Date()
    // A test gets 100 times a call's deadline: 10 ms gives the test 1 s.
    let result = try DropRulesBinary.run(["test", scratch.url.path, "--max-time", "10"])
    // Generous for a busy machine; the hook alone, unwatched, let it run about 8 s.
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(result.status == 1)
    #expect(result.stdout.contains("box_test.lua:6: time limit of 1000 ms exceeded"), "\(result.stdout)")
  }

  @Test("bench starts every iteration from the scenario's board, though dragEnded commits on a cancel")
  func benchRestoresTheBoard() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write(
      "shelf.lua",
      """
      return { shelf = {
        dropUpdated = function() return "move" end,
        dragEnded = function(info, source) for _, item in ipairs(info.items) do source:remove(item) end end,
      } }
      """)
    let scenario = try scratch.write(
      "gone.scenario.json",
      """
      { "name": "gone", "rules": ["shelf.lua"],
        "board": {"targets": [
          {"id": "a", "type": "shelf", "frame": [0, 0, 100, 100], "items": [{"id": "x", "name": "X"}]},
          {"id": "b", "type": "shelf", "frame": [100, 0, 100, 100], "items": []}]},
        "drag": {"items": ["x"], "allowedOperations": ["move"]},
        "steps": [{"over": "b"}, "cancel"] }
      """)
    let result = try DropRulesBinary.run(["bench", scenario, "--iterations", "3", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(report?["steps"] as? Int == 3)
  }

  @Test(
    "numbers that would overflow or exhaust the host are refused before anything runs",
    arguments: [
      ["test", "--max-instructions", "9223372036854775807", "rules/"],
      ["test", "--max-instructions", "0", "rules/"],
      ["run", "--max-memory", "9223372036854775807", "rules/calendar/move-to-empty-day.scenario.json"],
      ["bench", "rules/calendar/move-to-empty-day.scenario.json", "--iterations", "4611686018427387904"],
      ["run", "--max-time=-1", "rules/calendar/move-to-empty-day.scenario.json"],
      ["run", "--max-time", "3600001", "rules/calendar/move-to-empty-day.scenario.json"],
    ])
  func bounds(_ arguments: [String]) throws {
    let result = try DropRulesBinary.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains("must be between"))
  }

  @Test("help names every subcommand")
  func help() throws {
    let result = try DropRulesBinary.run(["--help"])
    #expect(result.status == 0)
    for command in ["run", "test", "check", "bench"] { #expect(result.stdout.contains("  \(command) ")) }
    let usage = try DropRulesBinary.run(["bench", "x.json", "--iterations", "0"])
    #expect(usage.status == 64)
  }
}
