import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// Each test of a `*_test.lua` file runs in a fresh environment: nothing one test
/// changes, replaces or patches reaches the tests after it.
@Suite("Tests in one file cannot make each other pass")
struct TestIsolationTests {
  /// Test files of two tests: the first tampers, the second passes only if the
  /// tampering reached it.
  static let tamperings = [
    #"""
    test("replaces expect", function()
      expect = function() return { toBe = function() end } end
    end)
    test("expect is the real one again", function() expect(1):toBe(2) end)
    """#,
    #"""
    test("patches the matchers behind expect", function()
      local patched = expect(1)
      getmetatable(patched).toBe = function() end
      patched:toBeTruthy()
    end)
    test("the matchers are the real ones again", function() expect(1):toBe(2) end)
    """#,
    #"""
    test("replaces table.concat", function()
      table.concat = function() return "forged" end
    end)
    test("table.concat is the real one again", function()
      expect(table.concat({ "a" })):toBe("forged")
    end)
    """#,
    #"""
    local shared = { n = 0 }
    test("changes a table of the file", function() shared.n = 1 end)
    test("the file's table is as the file made it", function() expect(shared.n):toBe(1) end)
    """#,
    #"""
    test("sets globals, droprules among them", function()
      droprules = { conforms = function() return true end }
      flag = true
    end)
    test("the globals are gone", function()
      expect(droprules ~= nil or flag == true):toBe(true)
    end)
    """#,
    #"""
    test("replaces scenario", function()
      scenario = function() return { drag = function() return { over = function() return "cancel" end } end } end
    end)
    test("scenario is the real one again", function()
      local sim = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      expect(sim:drag({ { id = "x" } }):over("a")):toBe("cancel")
    end)
    """#,
    #"""
    local sim = scenario { board = { targets = {
      { id = "a", type = "box", frame = { 0, 0, 10, 10 }, items = { { id = "x" } } },
      { id = "b", type = "box", frame = { 20, 0, 10, 10 } },
    } } }
    test("drops into the file's own simulation", function()
      local drag = sim:drag({ "x" })
      drag:over("b")
      expect(drag:drop()):toBe("performed")
    end)
    test("the file's simulation is made afresh", function()
      expect(sim:items("b")):toEqual({ "x" })
    end)
    """#,
    #"""
    local helpers = require("helpers")
    test("changes a module the file required", function() helpers.count = 99 end)
    test("the module is loaded afresh", function() expect(helpers.count):toBe(99) end)
    """#,
    #"""
    test("leaves a coroutine suspended with the globals it saw", function()
      marker = "leaked"
      local keep = coroutine.wrap(function() while true do coroutine.yield(marker) end end)
      expect(keep()):toBe("leaked")
    end)
    test("nothing of it is reachable", function() expect(marker):toBe("leaked") end)
    """#,
  ]

  /// Test files whose first test a limit stops: the second must run, and pass, in a
  /// state that nothing of the first reaches.
  static let stoppedByLimits = [
    #"""
    leftover = true
    test("runs out of memory", function()
      local hoard = {}
      while true do hoard[#hoard + 1] = string.rep("x", 1000) .. #hoard end
    end)
    test("runs after it", function() expect(#string.rep("y", 1000)):toBe(1000) end)
    """#,
    #"""
    test("runs out of instructions", function() while true do end end)
    test("runs after it", function() expect(1 + 1):toBe(2) end)
    """#,
    #"""
    test("runs out of instructions in a coroutine it leaves behind", function()
      local spin = coroutine.wrap(function() while true do end end)
      spin()
    end)
    test("runs after it", function() expect(type(coroutine.wrap)):toBe("function") end)
    """#,
  ]

  /// First tests that hold memory outside the Lua heap until they end (what they
  /// printed, the simulations they made); ``wholeCap`` runs after each.
  static let heldOutsideTheHeap = [
    #"""
    test("prints 6 MB", function()
      for i = 1, 800 do print(string.rep("p", 8000)) end
    end)
    """#,
    #"""
    test("makes many simulations", function()
      local sims = {}
      for i = 1, 65 do
        sims[i] = scenario { board = { targets = { { id = "a", type = "box", frame = { 0, 0, 10, 10 } } } } }
      end
    end)
    """#,
  ]

  /// A second test that needs most of an 8 MiB cap.
  static let wholeCap = #"""
    test("has the whole cap", function()
      local t = {}
      for i = 1, 20000 do t[i] = { i } end
      expect(#t):toBe(20000)
    end)
    """#

  @Test("what a test held outside the heap is given back when it ends", arguments: heldOutsideTheHeap)
  func heldBytesDoNotLeak(_ source: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", BoxRule.moving)
    let file = try directory.write("box_test.lua", source + "\n" + Self.wholeCap)
    let results = RuleTestRunner(limits: LuaLimits(maxMemory: 8 << 20)).run(files: [file])
    #expect(results.map(\.status) == [.passed, .passed], "\(results.map(\.failures))")
  }

  @Test("a test a limit stops does not stop the tests after it", arguments: stoppedByLimits)
  func limitsDoNotLeak(_ source: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", #"return { box = { dropUpdated = function() return "copy" end } }"#)
    let file = try directory.write("box_test.lua", source)
    let results = RuleTestRunner(limits: LuaLimits(maxInstructions: 20_000, maxMemory: 8 << 20)).run(files: [file])
    #expect(results.map(\.status) == [.failed, .passed], "\(results.map(\.failures))")
  }

  @Test(
    "a test that tampers with expect, libraries, file tables or globals cannot pass a later test",
    arguments: tamperings)
  func tamperingDoesNotLeak(_ source: String) throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", BoxRule.moving)
    try directory.write("helpers.lua", "return { count = 0 }")
    let file = try directory.write("box_test.lua", source)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.count == 2)
    #expect(results.first?.status == .passed, "\(results.first?.failures ?? [])")
    #expect(results.last?.status == .failed)
  }

  /// A box that moves items in.
  enum BoxRule {
    static let moving = """
      return { box = {
        dropUpdated = function() return "move" end,
        performDrop = function(info, target) target:insert(info.items) return true end,
      } }
      """
  }

  @Test("tests keep their order and names, and a filter runs only the tests it names")
  func orderAndFilter() throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", "return { box = {} }")
    let file = try directory.write("box_test.lua", Self.tamperings.prefix(6).joined(separator: "\n"))
    let all = RuleTestRunner().run(files: [file])
    #expect(
      all.map(\.name) == [
        "replaces expect", "expect is the real one again", "patches the matchers behind expect",
        "the matchers are the real ones again", "replaces table.concat", "table.concat is the real one again",
        "changes a table of the file", "the file's table is as the file made it",
        "sets globals, droprules among them", "the globals are gone", "replaces scenario",
        "scenario is the real one again",
      ])
    #expect(all.map(\.status) == Array(repeating: [.passed, .failed], count: 6).flatMap { $0 })
    let filtered = RuleTestRunner(filter: "again").run(files: [file])
    #expect(filtered.map(\.name).count == 4)
    #expect(filtered.allSatisfy { $0.status == .failed })
  }

  /// Files a red team wrote against a load that stopped once its test was registered
  /// (tried, and taken out): work hidden from an instruction count (a C function as a
  /// metamethod, arguments padded with nils or unpacked), and a stop the file could see
  /// (an `xpcall` around its tests, a to-be-closed variable). Each test's result must be
  /// its whole file's.
  static let wholeFile: [(source: String, statuses: [TestCaseResult.Status])] = [
    (
      """
      local seen = setmetatable({}, { __index = table.insert })
      test("first", function() end)
      test("must fail: the file's later seen.oops inserts into seen", function() expect(#seen):toBe(0) end)
      test("third", function() end, seen.oops)
      """, [.passed, .failed, .passed]
    ),
    (
      """
      local function prepare() ready = true end
      test("first", function() end)
      test("sees what a later registration's argument did", function() expect(ready):toBe(true) end)
      test("third", function() end, prepare(), nil, nil, nil, nil)
      """, [.passed, .passed, .passed]
    ),
    (
      """
      test("first", function() end)
      test("gets the before_each hook registered below", function() expect(ready):toBe(true) end)
      test("third", function() end, table.unpack({ before_each(function() ready = true end) }, 1, 24))
      """, [.passed, .passed, .passed]
    ),
    (
      """
      return xpcall(function()
        test("first", function() end)
        test("the file loaded without an error", function() expect(loadError):toBeNil() end)
        test("third", function() end)
      end, function(message) loadError = message end)
      """, [.passed, .passed, .passed]
    ),
    (
      """
      local closed <close> = setmetatable({}, { __close = function(_, err) if err then error(err) end end })
      local resource <close> = setmetatable({}, { __close = next })
      test("first", function() end)
      test("second", function() end)
      test("third", function() end)
      """, [.passed, .passed, .passed]
    ),
  ]

  @Test("a test's result is its whole file's: the top level runs to its end for every test", arguments: wholeFile)
  func wholeFileRuns(_ file: (source: String, statuses: [TestCaseResult.Status])) throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", "return { box = {} }")
    let path = try directory.write("box_test.lua", file.source)
    let results = RuleTestRunner().run(files: [path])
    #expect(results.map(\.status) == file.statuses, "\(results.map(\.failures))")
    #expect(results.allSatisfy { $0.printed.lines.isEmpty })
  }

  @Test("every test draws the same random numbers, as a fresh load of its file does")
  func randomNumbersStartAgain() throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", BoxRule.moving)
    let file = try directory.write(
      "box_test.lua",
      """
      print("file", math.random(1000000))
      for n = 1, 3 do
        test("draws " .. n, function() print("test", math.random(1000000)) end)
      end
      """)
    let results = RuleTestRunner().run(files: [file])
    let printed = results.map(\.printed.lines)
    #expect(printed.count == 3)
    #expect(Set(printed.map { $0.joined(separator: "|") }).count == 1, "\(printed)")
    #expect(printed.first?.count == 2)
  }

  @Test("a drag handle drives only its own drag: one replaced by a later sim:drag raises")
  func staleDragHandles() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "box.lua",
      """
      return { box = {
        canDrag = function(item) return item.id ~= "locked" end,
        dropUpdated = function() return "move" end,
        performDrop = function(info, target) target:insert(info.items) return true end,
      } }
      """)
    let file = try directory.write(
      "box_test.lua",
      """
      local function board()
        return scenario { board = { targets = {
          { id = "a", type = "box", frame = { 0, 0, 100, 100 }, items = { { id = "locked" }, { id = "x" } } },
          { id = "b", type = "box", frame = { 100, 0, 100, 100 } },
        } } }
      end
      test("a refused drag's handle does not drive the next drag", function()
        local sim = board()
        local refused = sim:drag({ "locked" })
        expect(refused.refused):toEqual({ "locked" })
        local moving = sim:drag({ "x" })
        expect(moving:over("b")):toBe("move")
        local ok, message = pcall(refused.drop, refused)
        expect(ok):toBe(false)
        expect(message):toContain("this drag is over")
        expect(sim:items("b")):toEqual({})
        expect(moving:drop()):toBe("performed")
      end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.count == 1)
    #expect(results.first?.status == .passed, "\(results.first?.failures ?? [])")
  }
}
