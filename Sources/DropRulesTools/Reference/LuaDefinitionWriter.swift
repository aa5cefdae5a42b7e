/// Writes a ``LuaAPIDescription`` as a lua-language-server definition file (`---@meta`):
/// what editors read for completion, hover documentation and type checks, the way LÖVE,
/// Defold and Neovim describe their APIs.
import DropRules

package enum LuaDefinitionWriter {
  /// The definition file's text.
  package static func definitions(_ api: LuaAPIDescription) -> String {
    var lines = [
      "---@meta droprules",
      "-- luacheck: ignore",
      "-- The droprules Lua API for lua-language-server, written by `droprules types` from the",
      "-- API description in the droprules library. Do not edit: write it again after an upgrade.",
      "-- Rule files see `droprules`; test files (*_test.lua) see `scenario`, `test` and `expect`",
      "-- instead. The language server cannot tell the two apart; luacheck (`droprules types",
      "-- --luacheck`) can. Both see the sandbox's part of Lua's standard library only.",
    ]
    for alias in api.aliases {
      lines.append("")
      lines += comment(alias.doc)
      lines.append("---@alias \(alias.name)")
      for choice in alias.choices {
        lines.append("---| " + choice.type + (choice.doc.isEmpty ? "" : " # " + oneLine(choice.doc)))
      }
    }
    let libraries = Dictionary(
      api.environments.flatMap(\.globals).compactMap { global -> (String, String)? in
        if case .library(let className) = global.kind { return (className, global.name) }
        return nil
      }, uniquingKeysWith: { first, _ in first })
    for type in api.classes {
      lines.append("")
      lines += classDefinition(type, container: libraries[type.name])
    }
    var written: Set<String> = []
    for global in api.environments.flatMap(\.globals) where written.insert(global.name).inserted {
      guard case .function(let signature) = global.kind else { continue }
      lines.append("")
      lines += comment(global.doc)
      lines += annotations(signature)
      lines.append("function \(global.name)(\(signature.parameters.map(\.name).joined(separator: ", "))) end")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A class: its fields as annotations, its methods and functions as stubs on a table
  /// (the global itself for a library such as `droprules`).
  private static func classDefinition(_ type: LuaAPIDescription.Class, container global: String?) -> [String] {
    var lines = comment(type.doc)
    lines.append("---@class \(type.name)")
    for member in type.members {
      guard case .field(let fieldType) = member.kind else { continue }
      let optional = type.variable == nil || fieldType.hasSuffix("?")
      let scope = member.isInternal ? "private " : ""
      let name = member.name + (optional && !member.name.hasPrefix("[") ? "?" : "")
      lines.append("---@field \(scope)\(name) \(fieldType) # \(oneLine(member.doc))")
    }
    let container = global ?? type.name.replacingOccurrences(of: ".", with: "_")
    lines.append(global == nil ? "local \(container) = {}" : "\(container) = {}")
    for member in type.members {
      let separator: String
      let signature: LuaAPIDescription.Signature
      switch member.kind {
      case .field: continue
      case .method(let described): (separator, signature) = (":", described)
      case .function(let described): (separator, signature) = (".", described)
      }
      lines.append("")
      lines += comment(member.doc)
      lines += annotations(signature)
      let parameters = signature.parameters.map(\.name).joined(separator: ", ")
      lines.append("function \(container)\(separator)\(member.name)(\(parameters)) end")
    }
    return lines
  }

  private static func annotations(_ signature: LuaAPIDescription.Signature) -> [String] {
    signature.parameters.map { parameter in
      let optional = parameter.type.hasSuffix("?") ? "?" : ""
      let type = optional.isEmpty ? parameter.type : String(parameter.type.dropLast())
      return "---@param \(parameter.name)\(optional) \(type)"
        + (parameter.doc.isEmpty ? "" : " " + oneLine(parameter.doc))
    }
      + signature.results.map { result in
        var line = "---@return \(result.type)"
        if !result.name.isEmpty { line += " \(result.name)" }
        if !result.doc.isEmpty { line += (result.name.isEmpty ? " # " : " ") + oneLine(result.doc) }
        return line
      }
  }

  private static func comment(_ text: String) -> [String] {
    text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map { "---" + $0 }
  }

  private static func oneLine(_ text: String) -> String {
    text.replacingOccurrences(of: "\n", with: " ")
  }
}
