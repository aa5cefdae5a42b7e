import DropRules
import DropRulesTools

/// The globals of a test file beyond the sandbox's: droprules' own (`test`, `scenario`,
/// `expect`, `property`) and busted's (its blocks and hooks, luassert's `assert`, spies,
/// stubs, mocks and matchers).
extension LuaAPIDescription {
  static let testGlobals: [Global] = [
    Global(
      "scenario",
      .function(
        Signature(
          [Param("spec", "droprules.ScenarioSpec", "the scenario schema as a Lua table")],
          returns: [Returns("droprules.Simulation", "", "")])),
      "Builds a fresh board with its rules; raises at the test's line when the spec is wrong."),
    Global(
      "test",
      .function(
        Signature([
          Param("name", "string", "what the test shows"),
          Param("body", "fun()", "the test; it fails when it raises"),
        ])),
      "Registers a test, at the file's top level or in a `describe`. The file loads once and its tests run in "
        + "order in that state. A test fails when it raises, when an `expect` in it has no matcher, or when a rule "
        + "raised an error that it did not take with `sim:takeErrors()`."),
    Global(
      "it",
      .function(
        Signature([
          Param("name", "string", "what the test shows, after the names of its describe blocks"),
          Param("body", "fun()", "the test"),
        ])), "`test`, by the name busted gives it."),
    Global(
      "describe",
      .function(
        Signature([
          Param("name", "string", "the group's name, which starts each of its tests' names"),
          Param("body", "fun()", "registers the group's tests and hooks; runs at once"),
        ])), "Groups tests, nested to any depth, as busted does."),
    Global(
      "before_each",
      .function(Signature([Param("body", "fun()", "runs before each test of its describe block")])),
      "Runs before every test of the enclosing describe block (or of the file), outer blocks first."),
    Global(
      "after_each",
      .function(Signature([Param("body", "fun()", "runs after each test of its describe block")])),
      "Runs after every test of the enclosing describe block (or of the file), inner blocks first, also when the "
        + "test failed."),
    Global(
      "setup",
      .function(
        Signature([Param("body", "fun()", "runs once, before the first test of its describe block that runs")])),
      "Runs once before the first test of the enclosing describe block (or of the file) that runs; when it "
        + "raises, every test of the block fails with its message."),
    Global(
      "teardown",
      .function(Signature([Param("body", "fun()", "runs once, after the last test of its describe block that runs")])),
      "Runs once after the last test of the enclosing describe block (or of the file) that runs, where its "
        + "setup did not fail; an error fails that last test."),
    Global(
      "lazy_setup", .function(Signature([Param("body", "fun()", "as setup")])), "`setup`, by busted's other name."),
    Global(
      "lazy_teardown", .function(Signature([Param("body", "fun()", "as teardown")])),
      "`teardown`, by busted's other name."),
    Global(
      "strict_setup", .function(Signature([Param("body", "fun()", "as setup")])), "`setup`, by busted's other name."),
    Global(
      "strict_teardown", .function(Signature([Param("body", "fun()", "as teardown")])),
      "`teardown`, by busted's other name."),
    Global(
      "finally",
      .function(Signature([Param("body", "fun()", "runs once the test's body is over, whatever it did")])),
      "Inside a test: runs `body` after the test's body, before `after_each`, also when the test failed (the "
        + "latest first); an error fails the test."),
    Global(
      "context", .function(Signature([Param("name", "string", "as describe"), Param("body", "fun()", "as describe")])),
      "`describe`, by busted's other name."),
    Global(
      "insulate",
      .function(Signature([Param("name", "string", "as describe"), Param("body", "fun()", "as describe")])),
      "`describe`: every test file already runs in a Lua state of its own, with its own globals and modules."),
    Global(
      "expose", .function(Signature([Param("name", "string", "as describe"), Param("body", "fun()", "as describe")])),
      "`describe`: the file's globals and modules are shared by its tests, as busted's expose shares them."),
    Global(
      "spec", .function(Signature([Param("name", "string", "as it"), Param("body", "fun()", "as it")])),
      "`it`, by busted's other name."),
    Global("randomize", .function(Signature([])), "Accepted and ignored: `droprules test --shuffle` shuffles."),
    Global(
      "assert", .standard(fields: []),
      "luassert's assert, still Lua's `assert(v, message, ...)` when called: `assert.are.equal(expected, "
        + "actual)`, `assert.are.same`, `assert.is_true`, `assert.is_nil`, `assert.has_error(f, err)`, "
        + "`assert.error_matches`, `assert.near`, `assert.matches`, `assert.unique`, the chains `is`, `are`, "
        + "`was`, `has`, `does`, `not`, `no` (and `is_not_...`, `not_...`), `assert.message(why)`, "
        + "`assert:register(\"assertion\", name, fn, positive, negative)`, `assert.spy(s).was.called(n)`; "
        + "`require \"luassert\"` gives it."),
    Global(
      "spy", .standard(fields: []),
      "luassert's spies: `spy.new(fn)`, `spy.on(table, name)` (taken off after the test), `s:clear()`, "
        + "`s:revert()`; `require \"luassert.spy\"` gives it."),
    Global(
      "stub", .standard(fields: []),
      "luassert's stubs: `stub(table, name, ...)` answers with the values given (`s:returns(...)`, "
        + "`s:invokes(fn)`, `s:on_call_with(...)`), taken off after the test; `require \"luassert.stub\"`."),
    Global(
      "mock", .standard(fields: []),
      "luassert's mocks: `mock(table, stubs)` spies on (or stubs) every function of the table, nested tables "
        + "included; `mock.revert(table)`; `require \"luassert.mock\"`."),
    Global(
      "match", .standard(fields: []),
      "luassert's matchers for `called_with` and `returned_with`: `match._`, `match.is_string()`, "
        + "`match.is_same(v)`, `match.matches(pattern)`, `match.is_not_nil()`...; `require \"luassert.match\"`."),
    Global(
      "pending",
      .function(
        Signature([
          Param("name", "string", "the test to write"), Param("body", "fun()?", "never run"),
        ])), "Lists a test as pending: it never runs and never fails the run."),
    Global(
      "expect",
      .function(
        Signature([Param("actual", "any", "the value under test")], returns: [Returns("droprules.Expectation", "", "")])
      ),
      "Starts an expectation: `expect(drag:drop()):toBe(\"performed\")`."),
    Global(
      "property",
      .function(
        Signature([
          Param("name", "string", "what must always hold"),
          Param(
            "check", "fun(board: droprules.BoardSnapshot): boolean?, string?",
            "false (and why) or an error when it does not hold"),
        ])),
      "A property of every board the rules can make: checked after every performed drop of every test in the "
        + "file, and by `droprules fuzz` after every drop it performs."),
  ]
}
