import DropRulesTestSupport
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

  @Test("test discovery takes Lua tests and scenarios; a file named directly is taken as it is")
  func testFiles() {
    let root = directory.path
    let (files, missing) = RuleTestRunner.discover([root + "/a", root + "/a/notes.md"])
    #expect(files == ["\(root)/a/board_test.lua", "\(root)/a/drag.scenario.json", "\(root)/a/notes.md"])
    #expect(missing.isEmpty)
  }
}
