import DropRulesTestSupport
import Foundation
import Testing

/// `droprules init` and `droprules types`, run as a user runs them.
@Suite("droprules init and types")
struct InitTypesCommandTests {
  static let scaffold = [
    "shelf.lua", "shelf_test.lua", "move-a-book.scenario.json", ".luarc.json", ".luacheckrc",
    "types/droprules.d.lua",
  ]

  /// luacheck's path, when it is installed (CI installs it).
  static let luacheck = ["/usr/bin/luacheck", "/usr/local/bin/luacheck"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  @Test("a new rule set passes droprules check, droprules test and run")
  func scaffoldPassesCheckTestAndRun() throws {
    let scratch = try TemporaryDirectory()
    let created = try DropRulesBinary.run(["init", "shelves"], in: scratch.url)
    #expect(created.status == 0, "\(created.stderr)")
    #expect(created.stdout.split(separator: "\n").filter { $0.hasPrefix("created ") }.count == Self.scaffold.count)
    for file in Self.scaffold {
      #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("shelves/" + file).path))
    }
    let check = try DropRulesBinary.run(["check", "shelves"], in: scratch.url)
    #expect(check.status == 0)
    #expect(check.stdout == "1 rule file checked, no problems\n", "the definition file is not a rule file")
    let test = try DropRulesBinary.run(["test", "shelves"], in: scratch.url)
    #expect(test.status == 0, "\(test.stdout)")
    #expect(test.stdout.hasSuffix("4 passed, 0 failed\n"))
    let run = try DropRulesBinary.run(["run", "shelves/move-a-book.scenario.json"], in: scratch.url)
    #expect(run.status == 0)
    #expect(run.stdout.contains("outcome performed, 0 errors, expectations passed"))
  }

  @Test("inside the folder init made, test and check with no path look in it; where rules/ exists, in rules/")
  func defaultPaths() throws {
    let scratch = try TemporaryDirectory()
    _ = try DropRulesBinary.run(["init", "shelves"], in: scratch.url)
    let inside = scratch.url.appendingPathComponent("shelves")
    let test = try DropRulesBinary.run(["test"], in: inside)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    #expect(test.stdout.hasSuffix("4 passed, 0 failed\n"))
    let check = try DropRulesBinary.run(["check"], in: inside)
    #expect(check.stdout == "1 rule file checked, no problems\n")
    // A project with rules/ keeps rules/ as the default, and the rule set beside it is not searched.
    try FileManager.default.createDirectory(
      at: scratch.url.appendingPathComponent("rules"), withIntermediateDirectories: true)
    let outside = try DropRulesBinary.run(["test"], in: scratch.url)
    #expect(outside.status == 1)
    #expect(outside.stdout.contains("rules/"), "\(outside.stdout)")
  }

  @Test(
    "a new rule set passes luacheck, and luacheck flags what the sandbox lacks",
    .enabled(if: luacheck != nil, "luacheck is not installed (CI installs lua-check)"))
  func scaffoldPassesLuacheck() throws {
    let scratch = try TemporaryDirectory()
    #expect(try DropRulesBinary.run(["init", "."], in: scratch.url).status == 0)
    let clean = try Self.runLuacheck(in: scratch.url)
    #expect(clean.status == 0, "\(clean.stdout)")
    #expect(clean.stdout.contains("0 warnings / 0 errors in 3 files"))
    try scratch.write("extra.lua", "local now = os.time()\nscenario()\nreturn { now = now, dump = string.dump }\n")
    try scratch.write("extra_test.lua", "droprules.conforms('a', 'b')\nexpect(1):toBe(1)\n")
    let flagged = try Self.runLuacheck(in: scratch.url)
    #expect(flagged.status != 0)
    for warning in [
      "extra.lua:1:13: (W113) accessing undefined variable 'os'",
      "extra.lua:2:1: (W113) accessing undefined variable 'scenario'",
      "extra.lua:3:28: (W143) accessing undefined field 'dump' of global 'string'",
      "extra_test.lua:1:1: (W113) accessing undefined variable 'droprules'",
    ] {
      #expect(flagged.stdout.contains(warning), "\(flagged.stdout)")
    }
  }

  static func runLuacheck(in directory: URL) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: luacheck ?? "/usr/bin/luacheck")
    process.arguments = ["--no-color", "--codes", "."]
    process.currentDirectoryURL = directory
    return try CommandResult(running: process)
  }

  @Test("init overwrites nothing: with any file there it writes none, names each, and exits 2")
  func initRefusesToOverwrite() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("set/shelf_test.lua", "-- mine\n")
    try scratch.write("set/.luacheckrc", "-- mine too\n")
    let refused = try DropRulesBinary.run(["init", "set"], in: scratch.url)
    #expect(refused.status == 2)
    #expect(refused.stdout == "")
    #expect(refused.stderr.contains("error: set/shelf_test.lua exists already"))
    #expect(refused.stderr.contains("error: set/.luacheckrc exists already"))
    #expect(!refused.stderr.contains("shelf.lua exists"))
    #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("set/shelf.lua").path))
    let kept = try String(contentsOf: scratch.url.appendingPathComponent("set/shelf_test.lua"), encoding: .utf8)
    #expect(kept == "-- mine\n")
  }

  @Test("init into a path that is a file fails with exit 2 and a message, not a crash")
  func initIntoAFile() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("taken", "a file\n")
    let result = try DropRulesBinary.run(["init", "taken"], in: scratch.url)
    #expect(result.status == 2)
    #expect(result.stderr == "error: taken is a file, not a folder; droprules init writes into a folder\n")
  }

  @Test("init into a dangling symbolic link or an empty name says so and writes nothing")
  func initIntoADanglingLinkOrNoName() throws {
    let scratch = try TemporaryDirectory()
    try FileManager.default.createSymbolicLink(
      atPath: scratch.url.appendingPathComponent("gone").path, withDestinationPath: "/no/such/folder")
    let dangling = try DropRulesBinary.run(["init", "gone"], in: scratch.url)
    #expect(dangling.status == 2)
    #expect(dangling.stderr == "error: gone is a symbolic link to /no/such/folder, which does not exist\n")
    let unnamed = try DropRulesBinary.run(["init", ""], in: scratch.url)
    #expect(unnamed.status != 0)
    #expect(unnamed.stderr.contains("the folder name is empty"))
    #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("shelf.lua").path))
  }

  @Test("init writes nothing through a link in its folder: a dangling file link or a folder that leads outside")
  func initThroughLinks() throws {
    let scratch = try TemporaryDirectory()
    let outside = try TemporaryDirectory()
    let folder = scratch.url.appendingPathComponent("set")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("types").path, withDestinationPath: outside.path)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("shelf.lua").path, withDestinationPath: outside.path + "/planted.lua")
    let result = try DropRulesBinary.run(["init", "set"], in: scratch.url)
    #expect(result.status == 2)
    #expect(result.stderr.contains("set/shelf.lua is a symbolic link; droprules init writes nothing through a link"))
    #expect(result.stderr.contains("set/types is a symbolic link"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "nothing written outside")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("move-a-book.scenario.json").path))
  }

  @Test("types prints the definitions; --output writes them; --luacheck gives the config")
  func typesWritesDefinitions() throws {
    let scratch = try TemporaryDirectory()
    let printed = try DropRulesBinary.run(["types"], in: scratch.url)
    #expect(printed.status == 0)
    #expect(printed.stdout.hasPrefix("---@meta droprules\n"))
    #expect(printed.stdout.contains("---@class droprules.Info\n"))
    #expect(printed.stdout.contains("function droprules.declareType(id, options) end"))
    let written = try DropRulesBinary.run(["types", "--output", "deep/er/droprules.d.lua"], in: scratch.url)
    #expect(written.status == 0)
    #expect(written.stdout == "wrote deep/er/droprules.d.lua\n")
    let file = try String(contentsOf: scratch.url.appendingPathComponent("deep/er/droprules.d.lua"), encoding: .utf8)
    #expect(file == printed.stdout)
    let config = try DropRulesBinary.run(["types", "--luacheck"], in: scratch.url)
    #expect(config.stdout.contains("stds.droprules = {"))
    #expect(config.stdout.contains("files[\"**/*_test.lua\"] = { std = \"droprules_test\" }"))
    let repository = try String(
      contentsOf: DropRulesBinary.packageRoot.appendingPathComponent(".luacheckrc"), encoding: .utf8)
    #expect(config.stdout == repository)
  }

  @Test("types --output into an unwritable place exits 1 with a message")
  func typesUnwritable() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("file", "x")
    let result = try DropRulesBinary.run(["types", "--output", "file/droprules.d.lua"], in: scratch.url)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: file/droprules.d.lua: "))
  }
}
