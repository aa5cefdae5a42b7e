import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// One rule file attacks in its handler; another file, called afterwards in the same
/// drag (and in the next drag), reports what it sees.
@Suite("One rule file cannot change what another sees")
struct IsolationTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// The victim prints what it reads; every line must be the same whatever ran before.
  static let victim = """
    return { victim = {
      dropUpdated = function(info, target)
        local item = info.items[1]
        print(item.id, item.name, #info.items, tostring(item), string.upper("a"), ("b"):upper(),
          string.format("%d", 7), droprules.conforms("public.png", "public.image"), target.data.kind,
          target.type, #target.items, info.modifiers.option, type(next), math.pi > 3, table.concat({ "x", "y" }))
        return "move"
      end,
    } }
    """

  static let expected = "note\tNote\t1\titem note\tA\tB\t7\ttrue\tvictim\tvictim\t0\tnil\tfunction\ttrue\txy"

  /// Runs `attack` as the attacker's dropUpdated body, then the victim, in two drags.
  func victimSees(after attack: String) throws -> (lines: [String], attackErrors: [String]) {
    let attacker = "return { attacker = { dropUpdated = function(info, target)\n\(attack)\nreturn 'move' end } }"
    var targets = row(["a"], type: "attacker") + row(["v"], type: "victim")
    targets[1].frame.x = 100
    targets[1].data = ["kind": .string("victim")]
    let host = try makeHost(
      files: [("attacker.lua", attacker), ("victim.lua", Self.victim)], targets: targets, items: [],
      directory: directory)
    var lines: [String] = []
    for _ in 0..<2 {
      try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
      try host.moveOver("a")
      try host.moveOver("v")
      try host.cancel()
      lines += host.printedLines
    }
    return (lines, host.diagnostics.map(\.message))
  }

  @Test(
    "attacks on shared objects, libraries and globals fail or stay in the attacker's file",
    arguments: [
      // The API metatables: getmetatable gives a description, never the table.
      "getmetatable(info.items[1]).__index = function() return 'hacked' end",
      "getmetatable(target).__index = {}",
      "setmetatable(info, { __index = function() return 'hacked' end })",
      "setmetatable(info.items[1], {})",
      // The string metatable that every string shares.
      "getmetatable('').__index.upper = function() return 'hacked' end",
      "getmetatable('').__index = {}",
      // Raw writes behind the metatables.
      "rawset(info.items, 1, 'hacked')",
      "rawset(info, 'items', {})",
      "rawset(info.items[1], 'id', 'hacked')",
      "rawset(target.data, 'kind', 'hacked')",
      "rawset(info.modifiers, 'option', true)",
      // Plain writes.
      "info.items[1] = 'hacked'",
      "target.data.kind = 'hacked'",
      "info.modifiers.option = true",
      "table.insert(info.items, 'hacked')",
      "table.remove(info.items)",
      "table.sort(info.items, function() return true end)",
      // The attacker's own libraries and globals are its own copies.
      "string.upper = function() return 'hacked' end",
      "string.format = nil",
      "table.concat = function() return 'hacked' end",
      "math.pi = 0",
      "droprules.conforms = function() return false end",
      "next = nil",
      "_G.tostring = function() return 'hacked' end",
      // Declaring types mid-drag would change conformance for every file.
      "droprules.declareType('public.png', { conformsTo = { 'public.text' } })",
      "local env = setmetatable({}, { __index = info }) load('items = nil', 'x', 't', info)()",
    ])
  func attack(_ attack: String) throws {
    let (lines, _) = try victimSees(after: attack)
    #expect(lines == [Self.expected, Self.expected])
  }

  @Test("the attacker is told why, at its own line")
  func attackErrors() throws {
    let (_, errors) = try victimSees(after: "info.items[1].id = 'x'")
    #expect(errors.count == 2)
    #expect(errors.first?.contains("item note (read-only): cannot set 'id'") == true)
    let (_, declare) = try victimSees(after: "droprules.declareType('x.y', {})")
    #expect(declare.first?.contains("droprules.declareType is a load-time call") == true)
    let (_, raw) = try victimSees(after: "rawset(info, 'items', {})")
    #expect(raw.first?.contains("rawset: info (read-only) belongs to the host and cannot be set") == true)
  }

  @Test("a module required by two files is a separate table in each")
  func modules() throws {
    try directory.write("shared.lua", "return { value = 'original' }")
    let attacker = """
      return { attacker = { dropUpdated = function()
        require('shared').value = 'hacked'
        return 'move'
      end } }
      """
    let victim = """
      return { victim = { dropUpdated = function() print(require('shared').value) return 'move' end } }
      """
    var targets = row(["a"], type: "attacker") + row(["v"], type: "victim")
    targets[1].frame.x = 100
    let host = try makeHost(
      files: [("attacker.lua", attacker), ("victim.lua", victim)], targets: targets, items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOver("a")
    try host.moveOver("v")
    #expect(host.printedLines == ["original"])
  }

  /// A host with an attacker and a victim file, each run in its own state, under `limits`.
  func attackerAndVictim(attacker: String, victim: String, limits: LuaLimits) throws -> RuleHost {
    var targets = row(["a"], type: "attacker") + row(["v"], type: "victim")
    targets[1].frame.x = 100
    let host = try RuleHost(limits: limits)
    try host.loadRules(atPaths: [
      try directory.write("attacker.lua", attacker), try directory.write("victim.lua", victim),
    ])
    try host.replaceBoard(Board(targets: targets, items: []))
    return host
  }

  @Test("each file has a heap of its own: a file that fills its memory cap leaves another the whole cap")
  func memoryOfItsOwn() throws {
    // The attacker keeps 5 of its 8 MiB; the victim then takes 4 MiB of its own. In one
    // shared heap the victim would run out.
    let attacker = """
      local kept = {}
      return { attacker = { dropUpdated = function()
        for i = 1, 5 do kept[i] = string.rep(tostring(i), 1 << 20) end
        return "move"
      end } }
      """
    let victim = """
      return { victim = { dropUpdated = function()
        print(collectgarbage("count") < 2048)
        local mine = {}
        for i = 1, 4 do mine[i] = string.rep(tostring(i), 1 << 20) end
        print(#mine[4])
        return "move"
      end } }
      """
    let host = try attackerAndVictim(attacker: attacker, victim: victim, limits: LuaLimits(maxMemory: 8 << 20))
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOver("a")
    try host.moveOver("v")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.map(\.message))")
    #expect(host.printedLines == ["true", "\(1 << 20)"])
  }

  @Test("data one file stores on the board leaves another file's heap its whole cap")
  func boardDataIsNotAnotherFilesMemory() throws {
    // The attacker stores 10 MiB on its own target; the victim then takes 10 MiB of its
    // own heap under a 16 MiB cap. Counted against every file's cap, the board's data
    // left the victim 6 MiB.
    let attacker = """
      return { attacker = { dropUpdated = function(info, target)
        for i = 1, 10 do target:set("blob" .. i, string.rep(tostring(i), 1 << 20)) end
        return "move"
      end } }
      """
    let victim = """
      return { victim = { dropUpdated = function()
        local mine = {}
        for i = 1, 10 do mine[i] = string.rep(tostring(i), 1 << 20) end
        print(#mine)
        return "move"
      end } }
      """
    let host = try attackerAndVictim(
      attacker: attacker, victim: victim,
      limits: LuaLimits(maxInstructions: 100_000_000, maxMemory: 16 << 20, maxTime: .zero))
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOver("a")
    try host.moveOver("v")
    #expect(host.currentBoard.target("a")?.data.count == 10)
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.map(\.message))")
    #expect(host.printedLines == ["10"])
  }

  @Test("each file has a collector of its own: another file's weak-keyed tables are not in the victim's heap")
  func collectorOfItsOwn() throws {
    // Weak-keyed chains make a collector's atomic phase quadratic in their length. Kept
    // in the attacker's state, they are traversed by the attacker's collector only: the
    // victim's heap, which its collector walks, does not hold them.
    let attacker = """
      local weak = setmetatable({}, { __mode = "k" })
      local head = {}
      return { attacker = { dropUpdated = function()
        local key = head
        for _ = 1, 20000 do local following = {}; weak[key] = following; key = following end
        print(collectgarbage("count") > 1024)
        return "move"
      end } }
      """
    let victim = """
      return { victim = { dropUpdated = function()
        print(collectgarbage("count") < 1024)
        return "move"
      end } }
      """
    // No deadline: what is measured is where the tables live, not how long they take.
    let host = try attackerAndVictim(attacker: attacker, victim: victim, limits: LuaLimits(maxTime: .zero))
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    try host.moveOver("a")
    try host.moveOver("v")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.map(\.message))")
    #expect(host.printedLines == ["true", "true"])
  }

  @Test("a rule file cannot add to what another file's type conforms to; declaring it as it is stays fine")
  func customTypesAreTheirDeclarers() throws {
    let owner = """
      droprules.declareType("com.example.card", { conformsTo = { "public.data" } })
      return { victim = { dropUpdated = function()
        print(droprules.conforms("com.example.card", "public.image"))
        return "move"
      end } }
      """
    let same = try directory.write(
      "same.lua",
      """
      droprules.declareType("com.example.card", { conformsTo = { "public.data" } })
      return { other = {} }
      """)
    let widening = try directory.write(
      "widening.lua",
      """
      -- Every card an image too, so that a rule for images takes the owner's cards.
      droprules.declareType("com.example.card", { conformsTo = { "public.image" } })
      return { attacker = {} }
      """)
    let host = try RuleHost()
    let problems = host.loadRulesCollectingProblems(atPaths: [try directory.write("owner.lua", owner), same, widening])
      .filter { $0.severity == .error }
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.file == widening)
    #expect(problems.first?.line == 2)
    #expect(problems.first?.message.contains("'com.example.card' is declared already") == true, "\(problems)")
    #expect(!host.types.conforms("com.example.card", to: "public.image"))
    #expect(host.types.conforms("com.example.card", to: "public.data"))
  }

  @Test("a rule file cannot change what a built-in type conforms to: it is told so at its line, and loads nothing")
  func builtInTypesAreFixed() throws {
    let directory = try TemporaryDirectory()
    let error = #expect(throws: (any Error).self) {
      _ = try makeHost(
        rules: """
          -- An image is text, says this file, so that its rule takes every image dropped.

          droprules.declareType("public.png", { conformsTo = { "public.text" } })
          return { box = {} }
          """, targets: row(["a"]), items: [], directory: directory)
    }
    let message = "\(error.map { "\($0)" } ?? "")"
    #expect(message.contains("rules.lua:3"), "\(message)")
    #expect(message.contains("'public.png' is a built-in type"), "\(message)")
    // A type of its own that conforms to both is fine.
    _ = try makeHost(
      rules: """
        droprules.declareType("com.example.sticker", { conformsTo = { "public.png", "public.text" } })
        return { box = {} }
        """, targets: row(["a"]), items: [], directory: directory)
  }
}
