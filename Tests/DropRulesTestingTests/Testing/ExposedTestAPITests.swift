import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// The API description against what a `*_test.lua` file really sees: its globals, and
/// every key of simulations, drag handles, expectations, diagnostics and committed
/// targets, listed at run time by a test file itself.
@Suite("The API description is what test files see")
struct ExposedTestAPITests {
  /// A test file whose one test prints a `what key` line for every key it can reach.
  static let listingTestFile = #"""
    test("lists what it can reach", function()
      local names = {}
      local function keys(what, value, skip)
        for key in pairs(value) do
          if key ~= skip then names[#names + 1] = what .. " " .. tostring(key) end
        end
      end
      for name, value in pairs(_G) do
        names[#names + 1] = "global " .. name
        if type(value) == "table" and name ~= "_G" then keys(name, value) end
      end
      local sim = scenario { board = { targets = {
        { id = "a", type = "box", frame = { 0, 0, 10, 10 }, items = { { id = "x", name = "X" }, { id = "y", opens = "b" } } },
        { id = "b", type = "box", frame = { 20, 0, 10, 10 } },
      } } }
      local spy = sim:spy("canDrag", { target = "a", type = "box" })
      local drag = sim:drag({ "x" })
      drag:over("a")
      keys("droprules.Simulation", sim)
      keys("droprules.Drag", drag)
      if drag.lastStep ~= nil then names[#names + 1] = "droprules.Drag lastStep" end
      local expectation = expect(1)
      keys("droprules.Expectation", expectation)
      -- Locked: the metatable's methods come from the test API below.
      expect(getmetatable(expectation)):toBe("droprules.Expectation (locked)")
      expect(getmetatable(drag)):toBe("droprules.Drag (locked)")
      expectation:toBe(1)
      keys("droprules.Spy", spy)
      if spy.calls ~= nil then names[#names + 1] = "droprules.Spy calls" end
      for _, call in ipairs(spy.calls) do keys("droprules.SpiedCall", call) end
      keys("droprules.CommittedTarget", sim:target("a"))
      keys("droprules.CommittedTarget", sim:target("b"))
      keys("droprules.CommittedItem", sim:item("x"))
      keys("droprules.CommittedItem", sim:item("y"))
      for _, diagnostic in ipairs(sim:takeErrors()) do keys("droprules.Diagnostic", diagnostic) end
      table.sort(names)
      for _, name in ipairs(names) do print(name) end
    end)
    """#

  /// A rule that raises, so that `sim.errors` has a diagnostic with every field, and a
  /// spied call has `result` (canDrag's).
  static let raisingRule = #"""
    return { box = { validateDrop = function() error("listing") end, canDrag = function() return true end } }
    """#

  static func exposedKeys() throws -> [String: Set<String>] {
    let directory = try TemporaryDirectory()
    try directory.write("listing.lua", raisingRule)
    let file = try directory.write("listing_test.lua", listingTestFile)
    let results = RuleTestRunner().run(files: [file])
    let result = try #require(results.first)
    #expect(results.count == 1 && result.status == .passed, "\(result.failures)")
    var keys: [String: Set<String>] = [:]
    for line in result.printed.lines {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      keys[parts[0], default: []].insert(parts[1])
    }
    // The methods of a simulation, a drag and an expectation sit behind locked
    // metatables, out of a test's reach: the test API hands them to the host.
    let runtime = try LuaRuntime()
    let api = try RuleTestFile.testAPI(in: runtime, hostFunctions: .table(LuaTable()))
    for (className, lister) in [
      ("droprules.Simulation", api?["simulationKeys"]), ("droprules.Drag", api?["dragKeys"]),
      ("droprules.Expectation", api?["expectationKeys"]),
    ] {
      guard case .function(let list)? = lister else {
        Issue.record("the test API lists no keys of \(className)")
        continue
      }
      let names = try runtime.call(list).first?.tableValue?.sequence.compactMap(\.stringValue) ?? []
      keys[className, default: []].formUnion(names)
    }
    return keys
  }

  static func described(_ className: String) -> Set<String> {
    Set(LuaAPIDescription.droprules.class(className)?.members.map(\.name) ?? [])
  }

  @Test(
    "every key of a test object is described, and every described key is exposed",
    arguments: [
      "droprules.Simulation", "droprules.Drag", "droprules.Expectation", "droprules.CommittedTarget",
      "droprules.Diagnostic", "droprules.Spy", "droprules.SpiedCall", "droprules.CommittedItem",
    ])
  func testObjects(_ className: String) throws {
    let exposed = try Self.exposedKeys()[className] ?? []
    let described = Self.described(className)
    #expect(!described.isEmpty)
    #expect(exposed.subtracting(described).sorted() == [], "exposed but not described")
    #expect(described.subtracting(exposed).sorted() == [], "described but not exposed")
  }

  @Test("the globals of a test file and the fields of its libraries are those described")
  func testGlobals() throws {
    let exposed = try Self.exposedKeys()
    let environment = try #require(LuaAPIDescription.droprules.environment("test"))
    #expect(Set(exposed["global"] ?? []) == Set(environment.globals.map(\.name)))
    for global in environment.globals {
      guard case .standard(let names) = global.kind else { continue }
      #expect(Set(exposed[global.name] ?? []) == Set(names), "fields of \(global.name)")
    }
  }

  @Test("the scenario spec's keys are those the decoder accepts")
  func scenarioSpec() {
    #expect(Self.described("droprules.ScenarioSpec") == Set(ScenarioDecoder.scenarioKeys))
    #expect(Self.described("droprules.TargetSpec") == Set(ScenarioDecoder.targetKeys))
    #expect(Self.described("droprules.ItemSpec") == Set(ScenarioDecoder.itemKeys))
  }
}
