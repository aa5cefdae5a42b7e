import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// A type's answers walk everything it conforms to, never cut short: what bounds the walk
/// is how many types each rule file may name in its declarations.
@Suite("Type declarations: bounded per file, answers never cut short")
struct TypeDeclarationLimitTests {
  /// A file that declares `t<from>` ... `t<to - 1>`, each conforming to the one before
  /// (`t<from>` to `first`), and a rule for `box`.
  static func chain(from: Int, to: Int, first: String) -> String {
    """
    local previous = "\(first)"
    for index = \(from), \(to - 1) do
      local name = "t" .. index
      droprules.declareType(name, { conformsTo = previous })
      previous = name
    end
    return { ["box\(from)"] = { validateDrop = function() return droprules.conforms("t\(to - 1)", "t0") end } }
    """
  }

  @Test("two files' chains make a 2,000-type chain: its last type conforms to its first")
  func longChainAcrossFiles() throws {
    let directory = try TemporaryDirectory()
    // A debug build loading 1,000 declarations while other tests run can pass 250 ms;
    // what this test asks is the answers, not the time.
    let host = try RuleHost(limits: LuaLimits(maxTime: .seconds(10)))
    let problems = host.loadRulesCollectingProblems(atPaths: [
      try directory.write("a.lua", Self.chain(from: 0, to: 1_000, first: "public.data")),
      try directory.write("b.lua", Self.chain(from: 1_000, to: 2_000, first: "t999")),
    ])
    #expect(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
    // Past the 1,024 ancestors the host once kept, the answer was a silent false.
    #expect(host.types.conforms("t1999", to: "t0"))
    #expect(host.types.conforms("t1999", to: "public.item"))
    #expect(!host.types.conforms("t0", to: "t1999"))
  }

  @Test("a file naming more than 1,024 types fails to load, at the line of the declaration")
  func tooManyTypes() throws {
    let directory = try TemporaryDirectory()
    // A far deadline: what is checked is the count, and a loaded machine ran the load
    // past 250 ms before it reached the 1,025th type.
    let host = try RuleHost(limits: LuaLimits(maxTime: .seconds(30)))
    let path = try directory.write("many.lua", Self.chain(from: 0, to: 1_100, first: "public.data"))
    let problems = host.loadRulesCollectingProblems(atPaths: [path])
    let error = try #require(problems.first { $0.severity == .error })
    #expect(error.file == path)
    #expect(error.line == 4)
    #expect(error.message.contains("at most 1024 types"), "\(error.message)")
  }

  @Test("one declaration naming 2,000 parents counts them all")
  func manyParents() throws {
    let directory = try TemporaryDirectory()
    let host = try RuleHost()
    let path = try directory.write(
      "wide.lua",
      """
      local parents = {}
      for index = 1, 2000 do parents[index] = "p" .. index end
      droprules.declareType("wide", { conformsTo = parents })
      return { box = {} }
      """)
    let problems = host.loadRulesCollectingProblems(atPaths: [path])
    #expect(problems.contains { $0.severity == .error && $0.line == 3 && $0.message.contains("would make it 2001") })
    #expect(!host.types.isKnown("wide"))
  }

  @Test("names of a megabyte each are refused past 256 KiB in all: the host keeps every name it is given")
  func hugeNames() throws {
    let directory = try TemporaryDirectory()
    let host = try RuleHost()
    let path = try directory.write(
      "huge.lua",
      """
      local declared = 0
      for index = 1, 1000 do
        local ok = pcall(droprules.declareType, index .. string.rep("x", 1000000))
        if not ok then break end
        declared = declared + 1
      end
      print(declared)
      droprules.declareType(string.rep("y", 300000))
      return { box = {} }
      """)
    let problems = host.loadRulesCollectingProblems(atPaths: [path])
    // No name of a megabyte fits; the next declaration of 300 KB raises at its line.
    #expect(host.loadOutput == ["0"])
    let error = try #require(problems.first { $0.severity == .error })
    #expect(error.line == 8)
    #expect(error.message.contains("256 KiB in all"), "\(error.message)")
    #expect(error.message.count < 600, "the name is cut in the message")
  }
}
