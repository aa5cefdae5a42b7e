import DropRules

/// The globals of rule files and of test files: Lua's own that the sandbox passes
/// through, and droprules' own.
extension LuaAPIDescription {
  /// What rule files see: their globals and the objects handlers are given. The test
  /// API is described beside the test runner (DropRulesTesting), which adds it to make
  /// the whole API, `LuaAPIDescription.droprules`.
  package static let rules = LuaAPIDescription(
    aliases: ruleAliases,
    classes: [
      info, item, target, board, point, frame, modifiers, operationSet, rule, library, proposalTable, preview,
    ],
    environments: [
      Environment(
        name: "rule",
        globals: sandbox + [
          Global("droprules", .library(className: library.name), "Declare and compare types; decode JSON.")
        ])
    ])

  package static let sandbox: [Global] = [
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
