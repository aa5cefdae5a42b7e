import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// What is generated from the API description, and the reference written by hand,
/// against the description.
@Suite("Definitions, luacheck config and reference follow the API description")
struct GeneratedReferenceTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let api = LuaAPIDescription.droprules

  static func read(_ path: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  @Test("docs/reference.md names every class, member, global, library field and alias value")
  func referenceCoversTheDescription() throws {
    let reference = try Self.read("docs/reference.md")
    var missing: [String] = []
    func require(_ text: String) { if !reference.contains(text) { missing.append(text) } }
    for type in Self.api.classes {
      require("`\(type.name)`")
      for member in type.members { require("`" + type.referenceName(of: member)) }
    }
    for global in Self.api.environments.flatMap(\.globals) {
      switch global.kind {
      case .function: require("`\(global.name)(")
      case .library: require("`\(global.name).")
      case .standard(let fields):
        require("`\(global.name)")
        for field in fields { require("`\(global.name).\(field)`") }
      }
    }
    for alias in Self.api.aliases {
      require("`\(alias.name)`")
      for value in alias.stringValues { require("`\"\(value)\"`") }
    }
    #expect(missing == [], "described but not in docs/reference.md")
  }

  @Test("the committed .luacheckrc and types/droprules.d.lua are what droprules types writes")
  func committedFilesAreCurrent() throws {
    #expect(
      try Self.read(".luacheckrc") == LuacheckConfigWriter.configuration(.droprules),
      "write it again: swift run droprules types --luacheck --output .luacheckrc")
    #expect(
      try Self.read("types/droprules.d.lua") == LuaDefinitionWriter.definitions(.droprules),
      "write it again: swift run droprules types --output types/droprules.d.lua")
  }

  @Test("the definition file is Lua that compiles, and declares every class, member and droprules global")
  func definitionsDeclareEverything() throws {
    let text = LuaDefinitionWriter.definitions(.droprules)
    _ = try LuaRuntime().load(source: text, chunkName: "=droprules.d.lua")
    #expect(text.hasPrefix("---@meta"))
    var missing: [String] = []
    for type in Self.api.classes {
      if !text.contains("---@class \(type.name)\n") { missing.append(type.name) }
      let container =
        type.name == "droprules.Library" ? "droprules" : type.name.replacingOccurrences(of: ".", with: "_")
      for member in type.members {
        let declared: String
        switch member.kind {
        case .field: declared = "---@field \(member.isInternal ? "private " : "")\(member.name)"
        case .method(let signature):
          declared =
            "function \(container):\(member.name)(\(signature.parameters.map(\.name).joined(separator: ", "))) end"
        case .function(let signature):
          declared =
            "function \(container).\(member.name)(\(signature.parameters.map(\.name).joined(separator: ", "))) end"
        }
        if !text.contains(declared) { missing.append(declared) }
      }
    }
    for global in Self.api.environments.flatMap(\.globals) {
      if case .function = global.kind, !text.contains("function \(global.name)(") { missing.append(global.name) }
      if global.isStandard, text.contains("\n\(global.name) = ") { missing.append("standard \(global.name) redefined") }
    }
    for alias in Self.api.aliases where !text.contains("---@alias \(alias.name)\n") { missing.append(alias.name) }
    #expect(missing == [])
  }

  /// The configuration run as luacheck runs it: Lua that fills `stds` and `files`.
  @Test("the luacheck config gives each environment exactly its globals and library fields")
  func luacheckStds() throws {
    let runtime = try LuaRuntime()
    let listing = try runtime.evaluate(
      LuacheckConfigWriter.configuration(.droprules) + """

        local lines = {}
        for std, definition in pairs(stds) do
          for name, global in pairs(definition.read_globals) do
            lines[#lines + 1] = std .. " " .. name
            for field in pairs(global.fields or {}) do lines[#lines + 1] = std .. " " .. name .. "." .. field end
          end
          for name in pairs(definition.globals) do lines[#lines + 1] = std .. " " .. name end
        end
        lines[#lines + 1] = "std " .. std
        lines[#lines + 1] = "test files " .. files["**/*_test.lua"].std
        return table.concat(lines, "\\n")
        """, globals: ["stds": .table(LuaTable()), "files": .table(LuaTable())]
    ).first?.stringValue
    let lines = Set((listing ?? "").split(separator: "\n").map(String.init))
    var expected: Set<String> = ["std droprules", "test files droprules_test"]
    for environment in Self.api.environments {
      let std = environment.name == "rule" ? "droprules" : "droprules_\(environment.name)"
      for global in environment.globals {
        expected.insert("\(std) \(global.name)")
        switch global.kind {
        case .standard(let fields): expected.formUnion(fields.map { "\(std) \(global.name).\($0)" })
        case .library(let className):
          let members = Self.api.class(className)?.members ?? []
          expected.formUnion(members.map { "\(std) \(global.name).\($0.name)" })
        case .function: break
        }
      }
    }
    #expect(lines.subtracting(expected).sorted() == [], "in the config, not described")
    #expect(expected.subtracting(lines).sorted() == [], "described, not in the config")
  }
}
