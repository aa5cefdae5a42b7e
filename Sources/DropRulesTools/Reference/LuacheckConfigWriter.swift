/// Writes a ``LuaAPIDescription`` as a luacheck configuration (`.luacheckrc`): one std per
/// environment, so that luacheck knows droprules' globals and flags what the sandbox
/// leaves out (`os`, `io`, `string.dump`).
import DropRules

package enum LuacheckConfigWriter {
  /// The configuration's text: stds `droprules` (rule files and modules) and
  /// `droprules_test` (`*_test.lua`, `*_spec.lua`).
  package static func configuration(_ api: LuaAPIDescription) -> String {
    var lines = [
      "-- luacheck configuration for droprules rule sets, written by `droprules types --luacheck`",
      "-- from the API description in the droprules library. Do not edit: write it again after",
      "-- an upgrade. Rule files and their modules see the sandbox's part of Lua's standard",
      "-- library and `droprules`; test files (*_test.lua, *_spec.lua) see it with `scenario`,",
      "-- `test`, `expect` and busted's vocabulary instead.",
    ]
    for environment in api.environments {
      let std = stdName(environment.name)
      lines.append("")
      lines.append("stds.\(std) = {")
      lines.append("  globals = {")
      // A file's own global table may take new names, as its globals may.
      lines.append("    _G = { other_fields = true },")
      lines.append("  },")
      lines.append("  read_globals = {")
      for global in environment.globals where global.name != "_G" {
        lines.append("    \(global.name) = \(definition(of: global, in: api)),")
      }
      lines.append("  },")
      lines.append("}")
    }
    lines += [
      "",
      "std = \"\(stdName("rule"))\"",
      "files[\"**/*_test.lua\"] = { std = \"\(stdName("test"))\" }",
      "files[\"**/*_spec.lua\"] = { std = \"\(stdName("test"))\" }",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  private static func stdName(_ environment: String) -> String {
    environment == "rule" ? "droprules" : "droprules_\(environment)"
  }

  private static func definition(of global: LuaAPIDescription.Global, in api: LuaAPIDescription) -> String {
    let fields: [String]
    switch global.kind {
    case .function: return "{}"
    case .standard(let names): fields = names
    case .library(let className):
      fields = api.class(className)?.members.filter { !$0.isInternal }.map(\.name) ?? []
    }
    guard !fields.isEmpty else { return "{}" }
    return "{ fields = { " + fields.map { "\($0) = {}" }.joined(separator: ", ") + " } }"
  }
}
