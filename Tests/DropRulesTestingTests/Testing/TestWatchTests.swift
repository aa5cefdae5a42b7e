import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

/// `droprules test --watch`: what counts as a change, and which tests a change runs.
@Suite("Watching test files")
struct TestWatchTests {
  @Test("a change, an addition and a removal are seen once; other files are not watched")
  func changes() throws {
    let directory = try TemporaryDirectory()
    try directory.write("box.lua", "return {}")
    try directory.write("box_test.lua", "")
    var watch = TestWatch(paths: [directory.path])
    #expect(watch.changes().isEmpty)
    // Same size and, on a coarse clock, maybe the same time: the inode still differs.
    try directory.write("box.lua", "return {} ")
    try directory.write("notes.txt", "not watched")
    #expect(watch.changes() == [directory.path + "/box.lua"])
    #expect(watch.changes().isEmpty)
    try directory.write("lib/util.lua", "return {}")
    try directory.write("a.scenario.json", "{}")
    try FileManager.default.removeItem(atPath: directory.path + "/box_test.lua")
    #expect(
      watch.changes() == [
        directory.path + "/a.scenario.json", directory.path + "/box_test.lua", directory.path + "/lib/util.lua",
      ])
  }

  @Test("a file rewritten in place with the same size is seen")
  func sameSizeRewrite() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("box.lua", "return 1")
    var watch = TestWatch(paths: [path])
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.write(contentsOf: Data("return 2".utf8))
    try handle.close()
    // Whatever the clock's resolution, the modification time differs from the first.
    var times = [timespec(tv_sec: 1, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    #expect(watch.changes() == [path])
  }

  static let tests = ["r/box_test.lua", "r/other_test.lua", "r/move.scenario.json", "r/never_test.lua"]
  static let loaded: [String: Set<String>] = [
    "r/box_test.lua": ["r/box.lua"],
    "r/other_test.lua": ["r/./box.lua", "r/shelf.lua"],
    "r/move.scenario.json": ["r/shelf.lua"],
  ]

  @Test(
    "a changed rule file runs its _test file, the tests that loaded it and those that never loaded",
    arguments: [
      (["r/box.lua"], ["r/box_test.lua", "r/other_test.lua", "r/never_test.lua"]),
      (["r/shelf.lua"], ["r/other_test.lua", "r/move.scenario.json", "r/never_test.lua"]),
      (["r/other_test.lua"], ["r/other_test.lua"]),
      (["r/move.scenario.json", "r/box_test.lua"], ["r/box_test.lua", "r/move.scenario.json"]),
      (["r/gone_test.lua"], []),
    ])
  func affected(changed: [String], expected: [String]) {
    #expect(TestWatch.testsToRun(after: changed, tests: Self.tests, ruleFilesLoaded: Self.loaded) == expected)
  }

  @Test(
    "a module, a rule file no test loads, or anything else runs every test",
    arguments: ["r/lib/util.lua", "r/orphan.lua", "r/x.json"])
  func unsure(changed: String) {
    #expect(TestWatch.testsToRun(after: [changed], tests: Self.tests, ruleFilesLoaded: Self.loaded) == nil)
  }
}
