import DropRulesTestSupport
import Foundation
import Testing

/// busted specs run as busted runs them: `droprules test spec/` from a project's root,
/// with luassert's assertions, spies and hooks, and `require` from the root.
@Suite("busted specs")
struct BustedSpecTests {
  static let project = DropRulesBinary.packageRoot.appendingPathComponent("Tests/Fixtures/busted")

  @Test("the fixture project's specs all pass, each file found as *_spec.lua")
  func fixtureSpecsPass() throws {
    let result = try DropRulesBinary.run(["test", "spec/"], in: Self.project)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    for file in ["assertions_spec.lua", "spies_spec.lua", "hooks_spec.lua"] {
      #expect(result.stdout.contains("spec/" + file), "\(file) was not run: \(result.stdout)")
    }
    #expect(result.stdout.contains("19 passed, 0 failed"), "\(result.stdout)")
  }

  @Test("a failing assertion says what luassert says, at the spec's line")
  func failureIsWorded() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "spec/sum_spec.lua",
      """
      describe("sums", function()
        it("adds", function()
          assert.are.equal(4, 2 + 1)
        end)
        it("finds the spy's calls", function()
          local s = spy.new(function() end)
          assert.spy(s).was.called()
        end)
      end)
      """)
    let result = try DropRulesBinary.run(["test", "spec/"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.stdout.contains("spec/sum_spec.lua:3: Expected objects to be equal."), "\(result.stdout)")
    // The report keeps a failure on its line: luassert's line breaks are shown as \n.
    #expect(result.stdout.contains("Passed in:\\n(number) 3\\nExpected:\\n(number) 4"), "\(result.stdout)")
    #expect(
      result.stdout.contains("spec/sum_spec.lua:7: Expected to be called any time(s), but was called 0 time(s)"),
      "\(result.stdout)")
  }

  @Test("require resolves from the root and src/, with dots or slashes, and never outside the root")
  func requireStaysInTheRoot() throws {
    let directory = try TemporaryDirectory()
    let outside = try TemporaryDirectory()
    try outside.write("secret.lua", "return 'outside'")
    try FileManager.default.createSymbolicLink(
      atPath: directory.url.appendingPathComponent("linked.lua").path,
      withDestinationPath: outside.url.appendingPathComponent("secret.lua").path)
    try directory.write("src/lib/init.lua", "return { name = 'lib' }")
    try directory.write(
      "spec/paths_spec.lua",
      """
      it("finds src/lib/init.lua", function() assert.equals("lib", require("lib").name) end)
      it("refuses a link out of the root", function()
        assert.error_matches(function() require "linked" end, "not found")
      end)
      it("refuses to climb", function()
        assert.error_matches(function() require "../secret" end, "invalid module name")
      end)
      """)
    let result = try DropRulesBinary.run(["test", "spec/"], in: directory.url)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("3 passed, 0 failed"), "\(result.stdout)")
  }

  @Test("tags in names choose tests with --tags and --exclude-tags; pending() inside a test marks it pending")
  func tagsAndPending() throws {
    let directory = try TemporaryDirectory()
    try directory.write(
      "spec/tags_spec.lua",
      """
      describe("storage #db", function()
        it("saves #slow", function() end)
        it("loads", function() end)
      end)
      it("parses #fast", function() end)
      it("is not written yet", function()
        pending("needs the new API")
        error("never reached")
      end)
      """)
    func run(_ arguments: [String]) throws -> String {
      try DropRulesBinary.run(["test", "spec/"] + arguments, in: directory.url).stdout
    }
    #expect(try run([]).contains("1 pending\n3 passed, 0 failed"))
    #expect(try run(["--tags", "slow"]).contains("1 passed, 0 failed"))
    #expect(try run(["--tags", "db"]).contains("2 passed, 0 failed"))
    #expect(try run(["--tags", "fast,#slow"]).contains("2 passed, 0 failed"))
    #expect(try run(["--exclude-tags", "db"]).contains("1 pending\n1 passed, 0 failed"))
    #expect(try run(["--tags", "db", "--exclude-tags", "slow"]).contains("1 passed, 0 failed"))
    let none = try DropRulesBinary.run(["test", "spec/", "--tags", "nope"], in: directory.url)
    #expect(none.status == 1)
    #expect(none.stdout.contains("no tests found: --tags nope matched none of the 4 tests in 1 file"), "\(none.stdout)")
  }
}
