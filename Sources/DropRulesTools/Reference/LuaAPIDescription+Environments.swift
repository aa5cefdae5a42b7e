import DropRules

/// The globals of rule files and of test files: Lua's own that the sandbox passes
/// through, and droprules' own.
extension LuaAPIDescription {
  /// The whole API: what `droprules types` writes and the tests hold to the sandbox.
  package static let droprules = LuaAPIDescription(
    aliases: ruleAliases,
    classes: [
      info, item, target, board, point, frame, modifiers, operationSet, rule, library, proposalTable, preview,
      simulation, drag, expectation, spy, spiedCall, diagnostic, committedTarget, committedItem, boardSnapshot,
      scenarioSpec,
      targetSpec, itemSpec,
    ],
    environments: [
      Environment(
        name: "rule",
        globals: sandbox + [
          Global("droprules", .library(className: library.name), "Declare and compare types; decode JSON.")
        ]),
      Environment(name: "test", globals: sandbox + testGlobals),
    ])

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

  /// Lua's globals as the sandbox passes them on, with what droprules changes.
  static let sandbox: [Global] = [
    Global("_G", .standard(fields: []), "The file's own global table."),
    Global("_VERSION", .standard(fields: []), "`\"Lua 5.4\"`."),
    Global("assert", .standard(fields: []), ""), Global("error", .standard(fields: []), ""),
    Global("getmetatable", .standard(fields: []), "A sealed object or view gives a description string."),
    Global("ipairs", .standard(fields: []), ""), Global("pairs", .standard(fields: []), ""),
    Global("next", .standard(fields: []), "Also walks read-only views and host objects."),
    Global("pcall", .standard(fields: []), "Cannot catch a spent budget, deadline or memory cap."),
    Global("xpcall", .standard(fields: []), "As `pcall`."),
    Global("rawequal", .standard(fields: []), ""), Global("rawget", .standard(fields: []), ""),
    Global("rawlen", .standard(fields: []), ""),
    Global("rawset", .standard(fields: []), "Refuses host objects and views."),
    Global("select", .standard(fields: []), ""),
    Global("setmetatable", .standard(fields: []), "Refuses `__gc`; host objects and views are locked."),
    Global("tonumber", .standard(fields: []), ""), Global("tostring", .standard(fields: []), ""),
    Global("type", .standard(fields: []), ""),
    Global("load", .standard(fields: []), "Text chunks only, in the file's environment unless given one."),
    Global("collectgarbage", .standard(fields: []), "Only `collectgarbage(\"count\")`."),
    Global("print", .standard(fields: []), "Into the trace (`print` lines); a line is cut at 8 KiB."),
    Global("require", .standard(fields: []), "Loads `NAME.lua` from the rule file's folder, a fresh copy per file."),
    Global(
      "string",
      .standard(fields: [
        "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize", "rep",
        "reverse", "sub", "unpack", "upper",
      ]), "Without `dump`; the pattern functions are bounded."),
    Global(
      "table", .standard(fields: ["concat", "insert", "move", "pack", "remove", "sort", "unpack"]),
      "`move` and `sort` charge their work first."),
    Global(
      "math",
      .standard(fields: [
        "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max",
        "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt", "tan",
        "tointeger", "type", "ult",
        // Debian's liblua5.4 keeps Lua 5.2's math functions (LUA_COMPAT_MATHLIB).
        "atan2", "cosh", "frexp", "ldexp", "log10", "pow", "sinh", "tanh",
      ]),
      "`random` starts from a fixed seed, so runs repeat. Debian's Lua keeps 5.2's `atan2`, `cosh`, `frexp`, `ldexp`, `log10`, `pow`, `sinh`, `tanh`."
    ),
    Global(
      "utf8", .standard(fields: ["char", "charpattern", "codepoint", "codes", "len", "offset"]), ""),
    Global(
      "coroutine",
      .standard(fields: ["close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield"]),
      "Counted against the caller's budget."),
  ]
}
