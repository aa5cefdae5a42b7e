import ArgumentParser
import DropRules
import DropRulesModel
import DropRulesTools
import Foundation

struct TypesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "types",
    abstract: "Write the Lua API for editors (lua-language-server) or for luacheck.",
    discussion: """
      Without options, prints a lua-language-server definition file (---@meta): every \
      global, object, field and method of the rule and test APIs, with types and docs. \
      Point .luarc.json's workspace.library at the folder that holds it. With --luacheck, \
      prints a .luacheckrc instead: std droprules for rule files, droprules_test for \
      *_test.lua. Exit status: 0 written; 1 the file could not be written.
      """
  )

  @Option(help: "Write to this file (its folder is created) instead of printing.")
  var output: String?

  @Flag(help: "Write a .luacheckrc instead of the definition file.")
  var luacheck = false

  func run() throws {
    let text = luacheck ? LuacheckConfigWriter.configuration(.droprules) : LuaDefinitionWriter.definitions(.droprules)
    guard let output else {
      print(text, terminator: "")
      return
    }
    do {
      try GeneratedFile.write(text, to: output)
    } catch {
      Console.error("\(output): \(error.localizedDescription)")
      throw Exit.failed
    }
    print("wrote \(output)")
  }
}

/// Writing files that droprules generates.
enum GeneratedFile {
  /// Writes `text` to `path`, creating its folder.
  static func write(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
}
