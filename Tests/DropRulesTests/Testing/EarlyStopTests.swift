import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRulesLua
@testable import DropRulesTesting

/// A test's load stops once the test is registered where the file's main chunk does
/// nothing after it but register tests (``RegistrationTail``), and only there: every
/// test's result stays its whole file's.
@Suite("A test's load stops early only where nothing but registrations follows")
struct EarlyStopTests {
  /// The tail of `source`'s main chunk, compiled as droprules compiles a test file.
  func tail(_ source: String) throws -> RegistrationTail? {
    let runtime = try LuaRuntime()
    let chunk = try runtime.load(source: source, chunkName: "@box_test.lua")
    let listing = try #require(runtime.listing(of: chunk))
    return RegistrationTail(listing)
  }

  /// Runs every test of `source` as `droprules test` does; the statuses, and how many
  /// loads stopped early.
  func run(_ source: String, limits: LuaLimits = LuaLimits()) throws -> (
    statuses: [TestCaseResult.Status], stopped: Int, failures: [String]
  ) {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", "return { box = {} }")
    let path = try directory.write("box_test.lua", source)
    let file = RuleTestFile(file: path, limits: limits, coverage: nil)
    let outcomes = try file.load().map { file.run($0) }
    return (outcomes.map(\.status), file.loadsStoppedEarly, outcomes.flatMap(\.failures))
  }

  /// A file whose last four registrations are its tail: lines 4, 5 to 7 (a body over
  /// three lines), 8 and 9; line 3 is not a registration.
  static let sample = """
    local x = 1
    test("first", function() expect(x):toBe(2) end)
    x = 2
    test("second", function() expect(x):toBe(2) end)
    test("third", function()
      expect(x):toBe(3)
    end)
    pending("later")
    it("fourth", function() expect(x):toBe(2) end)
    """

  @Test("the tail is the registrations at the end, by line")
  func tailLines() throws {
    let found = try #require(try tail(Self.sample))
    #expect(found.registrations == 4)
    #expect(found.lines == [4, 5, 7, 8, 9])
  }

  @Test(
    "no tail where the end does anything else",
    arguments: [
      #"test("a", function() end) x = 1"#,
      #"test("a", function() end) return 1"#,
      #"local t <close> = nil test("a", function() end)"#,
      #"test("a", function() end) describe("d", function() end)"#,
      #"test("a", function() end) before_each(function() end)"#,
      #"local test = test test("a", function() end)"#,
      #"test("a", function() end, 1)"#,
      #"test("a" .. "b", function() end) test(1, function() end)"#,
      #"test("a", function() end) pending("b", 1)"#,
      #"test("a", function() end) test("b")"#,
      "",
    ])
  func noTail(_ source: String) throws {
    #expect(try tail(source) == nil)
  }

  @Test("a line shared with other code is not the tail's")
  func sharedLine() throws {
    let found = try #require(try tail(#"x = 1 test("a", function() end)"# + "\n" + #"test("b", function() end)"#))
    #expect(found.registrations == 2)
    #expect(found.lines == [2])
  }

  @Test("loads for tests in the tail stop, with the results of whole loads")
  func stops() throws {
    let result = try run(Self.sample)
    #expect(result.statuses == [.passed, .passed, .failed, .pending, .passed])
    // The first test runs in the listing load; second, third and fourth stop.
    #expect(result.stopped == 3)
  }

  /// Files that try to make a stopped load differ from a whole one, each with the
  /// statuses a whole load gives and how many loads may stop: work in the environment's
  /// metamethods, a registration read through another `_ENV`, or on a line shared with
  /// other code.
  static let attacks: [(source: String, statuses: [TestCaseResult.Status], stopped: Int)] = [
    (
      """
      local real = test
      test = nil
      setmetatable(_ENV, { __index = function(_, key)
        if key == "test" then reads = (reads or 0) + 1 return real end
      end })
      test("first", function() end)
      test("sees every read of test, the later ones too", function() expect(reads):toBe(4) end)
      test("third", function() end)
      test("fourth", function() end)
      """, [.passed, .passed, .passed, .passed], 0
    ),
    (
      """
      local outer, reads = _ENV, 0
      local _ENV = setmetatable({}, { __index = function(_, key) reads = reads + 1 return outer[key] end })
      test("first", function() end)
      test("sees the reads of test after it, and its own of expect", function() expect(reads):toBe(4) end)
      test("third", function() end)
      """, [.passed, .passed, .passed], 0
    ),
    (
      """
      local real = test
      local function counted(...) calls = (calls or 0) + 1 return real(...) end
      test = counted
      test("first", function() end)
      test("sees the calls after it", function() expect(calls):toBe(3) end)
      test("third", function() end)
      """, [.passed, .passed, .passed], 0
    ),
    (
      """
      test("first", function() end)
      test("sees what the line after it did", function() expect(ready):toBe(true) end)
      test("third", function() end) ready = true
      test("fourth", function() expect(ready):toBe(true) end)
      """, [.passed, .passed, .passed, .passed], 1
    ),
    (
      """
      local list = {}
      test("first", function() end)
      test("sees the rest of the file", function() expect(#list):toBe(1) end)
      list[#list + 1] = "x" test("third", function() end)
      """, [.passed, .passed, .passed], 0
    ),
    (
      """
      test("first", function() end)
      describe("a block", function()
        test("inside", function() expect(after):toBe(true) end)
      end)
      after = true
      test("last", function() expect(after):toBe(true) end)
      """, [.passed, .passed, .passed], 1
    ),
  ]

  /// Attacks on the runtime checks one at a time: a registration on a line number of the
  /// tail from another chunk, run at the bottom of a coroutine (no frame above it either),
  /// and a replaced `pending` (or `it`) read in the tail.
  static let checks: [(source: String, statuses: [TestCaseResult.Status], stopped: Int)] = [
    (
      """
      test("first", function() end)
      coroutine.wrap(load("\\n\\n\\n\\ntest('sees the rest of line 2', function() expect(flag):toBe(true) end)"))() flag = true
      test("third", function() end)
      test("fourth", function() end)
      test("fifth", function() end)
      """, [.passed, .passed, .passed, .passed, .passed], 3
    ),
    (
      """
      local realPending, calls = pending, 0
      pending = function(...) calls = calls + 1 return realPending(...) end
      test("first", function() end)
      test("sees every pending call", function() expect(calls):toBe(2) end)
      pending("a")
      pending("b")
      """, [.passed, .passed, .pending, .pending], 0
    ),
    (
      """
      local realIt, calls = it, 0
      it = function(...) calls = calls + 1 return realIt(...) end
      test("first", function() end)
      test("sees every it call", function() expect(calls):toBe(1) end)
      it("third", function() end)
      """, [.passed, .passed, .passed], 0
    ),
  ]

  @Test("a stopped load gives its whole file's result", arguments: attacks + checks)
  func attack(_ file: (source: String, statuses: [TestCaseResult.Status], stopped: Int)) throws {
    let result = try run(file.source)
    #expect(result.statuses == file.statuses)
    #expect(result.stopped == file.stopped)
  }

  /// A red team's file: test loads (told from the listing load by a registration that
  /// raises only there) spend nearly the whole budget in a coroutine, counted from its
  /// first instruction, so that the 2,000 registrations after the test pass the budget in
  /// a whole load. A stopped load must fail the same way.
  @Test("a load near its instruction budget runs the whole file")
  func budgetNearlySpent() throws {
    let source =
      """
      local listing = not pcall(test, 1, 2)
      if not listing then coroutine.wrap(function() for i = 1, 20000000 do end end)() end
      test("first", function() end)
      test("second", function() end)

      """ + (1...2_000).map { "pending(\"p\($0)\")" }.joined(separator: "\n")
    let result = try run(source, limits: LuaLimits(maxInstructions: 200_100))
    #expect(Array(result.statuses.prefix(2)) == [.passed, .failed])
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.contains("instruction budget of 20010000 instructions exceeded") == true)
    #expect(result.stopped == 0)
  }

  @Test("the budget leaves room for the registrations a stop skips")
  func budgetRoom() {
    let tail = 1_000 * RuleTestFile.instructionsPerRegistration
    #expect(RuleTestFile.budgetHolds(counted: 0, limit: 1_000_000, tail: 1_000))
    #expect(RuleTestFile.budgetHolds(counted: 1_000_000 - 1_000 - tail, limit: 1_000_000, tail: 1_000))
    #expect(!RuleTestFile.budgetHolds(counted: 1_000_000 - 999 - tail, limit: 1_000_000, tail: 1_000))
    #expect(!RuleTestFile.budgetHolds(counted: 0, limit: Int.max, tail: Int.max))
  }

  @Test("the memory cap leaves room for what the registrations a stop skips allocate")
  func memoryRoom() {
    #expect(RuleTestFile.memoryHolds(available: 2_000_000, reserve: 1_000_000, bytes: 1_000_000))
    #expect(!RuleTestFile.memoryHolds(available: 2_000_000, reserve: 1_000_000, bytes: 1_000_001))
  }

  /// A red team's file: the heap filled to 30 KB under the cap's reserve, then tests whose
  /// bodies hold 150 upvalues, so that the registrations after a test set off the cap's
  /// full collection in a whole load, which clears a weak table's entry. A stopped load
  /// must give what the whole one gives.
  @Test("a load near the memory cap runs the whole file")
  func memoryNearlyFull() throws {
    let locals = (0..<150).map { "a\($0)" }.joined(separator: ", ")
    let cap = 8 * 1_024 * 1_024
    let reserve = cap / 16
    var source = """
      local weak = setmetatable({}, { __mode = "v" })
      weak[1] = {}
      local fill, n = {}, 0
      while collectgarbage("count") * 1024 < \(cap - reserve - 30_000) do
        n = n + 1
        fill[n] = string.rep("x", 1000) .. n
      end
      local \(locals)
      test("first", function() end)
      test("second", function() expect(weak[1]):toBeTruthy() end)

      """
    for pad in 0..<20 { source += "test(\"pad\(pad)\", function() return \(locals) end)\n" }
    let limits = LuaLimits(maxMemory: cap)
    let stopped = try run(source, limits: limits)
    let whole = try run(source + "local _ = 0\n", limits: limits)
    // Loads whose heap the collector has emptied meanwhile may stop: far from the cap.
    #expect(stopped.statuses == whole.statuses)
    #expect(stopped.statuses.prefix(2) == [.passed, .failed])
  }

  /// A red team's file: every test asks whether a weak table still holds an object only
  /// it refers to. What the collector had done by then varied with how much of the file
  /// each load ran; in a file that sets a metatable, it now collects in full before each
  /// test.
  @Test("a weak table holds the same before every test, stopped or whole")
  func weakEntriesBeforeEachTest() throws {
    var source = """
      local weak = setmetatable({}, { __mode = "v" })
      weak[1] = {}

      """
    for index in 0..<30 { source += "test(\"t\(index)\", function() expect(weak[1]):toBeNil() end)\n" }
    let stopped = try run(source)
    let whole = try run(source + "local _ = 0\n")
    #expect(stopped.statuses == Array(repeating: .passed, count: 30))
    #expect(whole.statuses == stopped.statuses)
    #expect(stopped.stopped == 29)
  }

  /// Hostile shapes for the bytecode reader and the tail: 3,000 registrations on one line
  /// (an absolute line entry every 128 instructions), functions nested as deep as Lua
  /// compiles them, and a file that ends in a `return` of a value. None may crash, and the
  /// results are the whole loads'.
  @Test("odd shapes: one long line of registrations, deep nesting, a returned value")
  func oddShapes() throws {
    let longLine = (0..<3_000).map { "test(\"t\($0)\", function() end)" }.joined(separator: " ")
    let line = try #require(try tail(longLine))
    #expect(line.registrations == 3_000)
    #expect(line.lines == [1])
    let nested =
      "local f = " + String(repeating: "function() return ", count: 40) + "1"
      + String(repeating: " end", count: 40) + "\ntest(\"deep\", function() expect(f):toBeTruthy() end)"
    #expect(try tail(nested)?.registrations == 1)
    let deep = try run(nested + "\ntest(\"second\", function() end)")
    #expect(deep.statuses == [.passed, .passed])
    #expect(deep.stopped == 1)
    let returning = try run("test(\"a\", function() end)\ntest(\"b\", function() end)\nreturn 1")
    #expect(returning.statuses == [.passed, .passed])
    #expect(returning.stopped == 0)
  }
}
