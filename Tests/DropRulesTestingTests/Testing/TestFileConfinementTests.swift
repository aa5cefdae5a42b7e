import DropRulesTestSupport
import Testing

@testable import DropRulesTesting

/// A test file names rule files in its own folder tree, as a scenario does
/// (`Tests/DropRulesToolsTests/Scenario/RuleConfinementTests.swift`).
@Suite("Rule files a test file names stay in its folder")
struct TestFileConfinementTests {
  let directory: TemporaryDirectory

  /// `project/` holds the test file; `secret.lua` beside it is a file with a syntax
  /// error whose text a load error would quote.
  init() throws {
    directory = try TemporaryDirectory()
    try directory.write("secret.lua", "return 1 SECRET_CONTENT")
    try directory.write("project/sub/nested.lua", "return { crate = {} }")
  }

  @Test("a test file's scenario { rules = ... } is held to the test file's folder")
  func testFiles() throws {
    let file = try directory.write(
      "project/box_test.lua",
      """
      test("reaches out", function()
        scenario { rules = { "../secret.lua" }, board = { targets = {} } }
      end)
      test("stays in", function()
        scenario { rules = { "sub/nested.lua" }, board = { targets = {} } }
      end)
      """)
    let results = RuleTestRunner().run(files: [file])
    #expect(results.map(\.status) == [.failed, .passed])
    let message = results.first?.failures.first ?? ""
    #expect(message.hasPrefix("\(file):2: "), "\(message)")
    #expect(message.contains("'\(directory.path)/project/../secret.lua'"), "\(message)")
    #expect(!message.contains("SECRET"), "\(message)")
  }
}
