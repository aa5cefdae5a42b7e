import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua

/// `require` as rule files see it: the runtime asks, the rule binding's source files
/// answer from the rule folders only.
@Suite("require in the sandbox")
struct RequireTests {
  let directory: TemporaryDirectory
  let lua: LuaRuntime
  let sourceFiles: RuleSourceFiles

  init() throws {
    directory = try TemporaryDirectory()
    try directory.write("rules/util/colors.lua", "return { red = '#f00', count = select('#', ...) }")
    try directory.write("rules/counter.lua", "loads = (loads or 0) + 1\nreturn { loads = loads }")
    try directory.write("secret.lua", "return 'outside'")
    lua = try LuaRuntime()
    sourceFiles = RuleSourceFiles()
    lua.moduleReader = sourceFiles.module(named:)
    sourceFiles.allowModules(in: directory.path + "/rules")
  }

  @Test("loads a module from a rule directory, dots as folders")
  func loadsModule() throws {
    #expect(try lua.evaluateFirst("return require('util.colors').red") == "#f00")
    #expect(lua.stackDepth == 0)
  }

  @Test("slashes name folders as dots do, and a folder's init.lua is its module, as busted's path has them")
  func slashesAndInit() throws {
    try directory.write("rules/shapes/init.lua", "return { kind = 'shapes' }")
    #expect(try lua.evaluateFirst("return require('util/colors').red") == "#f00")
    #expect(try lua.evaluateFirst("return require('shapes').kind") == "shapes")
  }

  @Test("loads each module once")
  func cachesModules() throws {
    let value = try lua.evaluateFirst("return require('counter') == require('counter')")
    #expect(value == true)
  }

  @Test(
    "refuses names that could leave the rule directories",
    arguments: ["../secret", "..secret", "/etc/passwd", "util//colors", "", "a..b", "secret", "util/../secret"])
  func refusesEscapes(name: String) throws {
    let environment = try lua.newEnvironment()
    let chunk = try lua.load(source: "return require(...)", chunkName: "=test", environment: environment)
    let failure = #expect(throws: LuaError.self) { try lua.call(chunk, [.string(name)]) }
    #expect(failure?.message.hasPrefix("require:") == true)
  }

  @Test("a symbolic link cannot lead a module out of the rule directories")
  func refusesSymlinkEscape() throws {
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/rules/escape.lua", withDestinationPath: directory.path + "/secret.lua")
    let error = #expect(throws: LuaError.self) { try lua.evaluate("return require('escape')") }
    #expect(error?.message.contains("not found") == true)
  }

  @Test("modules run in the sandbox too")
  func modulesAreSandboxed() throws {
    try directory.write("rules/probe.lua", "return { io = io, os = os, dump = string.dump }")
    let value = try lua.evaluateFirst(
      "local p = require('probe'); return p.io == nil and p.os == nil and p.dump == nil")
    #expect(value == true)
  }

  @Test("a rule file or module over the source size cap is refused before it is read, and says why")
  func sizeCap() throws {
    let big = String(repeating: "-- generated\n", count: RuleSourceFiles.maximumSourceBytes / 10)
    try directory.write("rules/huge.lua", big)
    let error = #expect(throws: LuaError.self) { try lua.evaluate("return require('huge')") }
    #expect(error?.message.contains("droprules reads at most \(RuleSourceFiles.maximumSourceBytes) bytes") == true)
    let path = try directory.write("huge_rule.lua", big)
    let refused = #expect(throws: LuaError.self) {
      try RuleSourceFiles().loadFile(atPath: path, into: lua, environment: nil)
    }
    #expect(refused?.kind == .refused)
    #expect(refused?.file == path)
  }

  @Test("a file that never ends or never opens (a device, a named pipe) is refused at once; a file is read to its cap")
  func specialFiles() throws {
    let refused = #expect(throws: LuaError.self) {
      try RuleSourceFiles().loadFile(atPath: "/dev/zero", into: lua, environment: nil)
    }
    #expect(refused?.kind == .refused)
    #expect(refused?.message == "cannot read the file", "\(refused?.message ?? "")")
    let pipe = directory.url.path + "/pipe.lua"
    #expect(mkfifo(pipe, 0o600) == 0)
    #expect(FileContents.bytes(atPath: pipe, maximumBytes: 1000) == nil)
    let long = try directory.write("long.lua", String(repeating: "x", count: 2000))
    #expect(FileContents.bytes(atPath: long, maximumBytes: 1000)?.count == 1001)
    // An empty file reads as no bytes (and, unlike FileManager's read, leaks nothing).
    let empty = try directory.write("empty.lua", "")
    #expect(FileContents.bytes(atPath: empty, maximumBytes: 10) == Data())
    #expect(FileContents.bytes(atPath: directory.url.path + "/missing.lua", maximumBytes: 10) == nil)
  }
}
