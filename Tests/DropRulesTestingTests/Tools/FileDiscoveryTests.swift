import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

@Suite("Finding rule and test files")
struct FileDiscoveryTests {
  let directory: TemporaryDirectory

  init() throws {
    directory = try TemporaryDirectory()
    for file in [
      "a/board.lua", "a/board_test.lua", "a/lib/helpers.lua", "a/drag.scenario.json", "a/notes.md",
      "b/nested/deep.lua", "top.lua", "types/droprules.d.lua", "a/editor.d.lua",
    ] {
      try directory.write(file, "")
    }
  }

  @Test("rule files skip tests, lib modules and editor definitions (*.d.lua), and group by folder")
  func ruleFiles() {
    let root = directory.path
    let (groups, missing) = FileDiscovery.ruleFileGroups(in: [root, root + "/gone"], recursive: true)
    // Folders in path order, so a parent's files come before its subfolders'.
    #expect(groups == [["\(root)/top.lua"], ["\(root)/a/board.lua"], ["\(root)/b/nested/deep.lua"]])
    #expect(missing == [root + "/gone"])
    let shallow = FileDiscovery.ruleFileGroups(in: [root + "/"], recursive: false)
    #expect(shallow.groups == [["\(root)/top.lua"]])
  }

  @Test("a folder's files are those inside it: a link that leads outside is not followed, one inside is")
  func linksStayInside() throws {
    let outside = try TemporaryDirectory()
    let secret = try outside.write("secret.lua", "return {}")
    let root = directory.path
    try FileManager.default.createSymbolicLink(atPath: root + "/a/leak.lua", withDestinationPath: secret)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/a/alias.lua", withDestinationPath: root + "/a/lib/helpers.lua")
    let (groups, _) = FileDiscovery.ruleFileGroups(in: [root + "/a"], recursive: true)
    #expect(groups.flatMap { $0 } == ["\(root)/a/alias.lua", "\(root)/a/board.lua"])
    // Named directly, a file is taken as it is: the user chose it.
    #expect(
      FileDiscovery.ruleFileGroups(in: [root + "/a/leak.lua"], recursive: true).groups == [[root + "/a/leak.lua"]])
  }

  @Test("test discovery takes Lua tests and scenarios; a file named directly is taken as it is")
  func testFiles() {
    let root = directory.path
    let (files, missing) = RuleTestRunner.discover([root + "/a", root + "/a/notes.md"])
    #expect(files == ["\(root)/a/board_test.lua", "\(root)/a/drag.scenario.json", "\(root)/a/notes.md"])
    #expect(missing.isEmpty)
  }
}
