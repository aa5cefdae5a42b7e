import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

@Suite("Host objects: references, reads, stale objects and bad numbers")
struct HostObjectTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func nested() -> [DropTarget] {
    var targets = row(["list", "other"], items: ["list": ["a", "b"]])
    targets.append(
      DropTarget(id: "inner", type: "box", frame: Rect(x: 10, y: 10, width: 20, height: 20), parent: "list"))
    targets[0].data = ["tags": .array([.string("x"), .string("y")]), "count": .integer(2)]
    return targets
  }

  @Test("references are objects: source, container, parent and the board's lookups are the same object")
  func references() throws {
    let host = try makeHost(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local list = info.board:target("list")
          local a = info.items[1]
          print(info.source == list, a.container == list, a.container == info.source, a.index,
            info.board:target("inner").parent == list, info.board:item("a") == a, rawequal(target, list),
            info.source == info.board:target("other"), a.container == "list")
          return "move"
        end } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.movePointer(to: Point(x: 50, y: 50))
    #expect(host.printedLines == ["true\ttrue\ttrue\t1\ttrue\ttrue\ttrue\tfalse\tfalse"])
  }

  @Test("next, pairs and # see data and lists; nested data is read-only too")
  func iteration() throws {
    let host = try makeHost(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local keys = {}
          for key in pairs(target.data) do keys[#keys + 1] = key end
          table.sort(keys)
          print(next(target.data) ~= nil, table.concat(keys, ","), #target.data.tags, target.data.tags[2],
            #target.items, next(target.items) == 1, select(2, next(info.items)) == info.items[1],
            (pcall(function() target.data.tags[1] = "z" end)))
          return "move"
        end } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.movePointer(to: Point(x: 50, y: 50))
    #expect(host.printedLines == ["true\tcount,tags\t2\ty\t2\ttrue\ttrue\tfalse"])
  }

  @Test("staged changes are read back at once, and a rollback is read back too")
  func stagedReads() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function(info, target)
            if target.id == "other" then
              target:set("seen", (target.data.seen or 0) + 1)
              target:insert(info.items[1], 1)
              print(target.data.seen, #target.items, info.items[1].container.id, #info.board:target("list").items)
            end
            return "move"
          end,
          performDrop = function(info, target) return false end,
        } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    for _ in 0..<2 {
      try host.beginDrag(DragRequest(items: [.board("a")]))
      try host.moveOver("other")
      try host.moveOver("other")
      #expect(try host.drop() == .failed)
    }
    #expect(host.printedLines == ["1\t1\tother\t1", "2\t1\tother\t1"])
    #expect(host.board.items(in: "list") == ["a", "b"])
    #expect(host.board.target("other")?.data["seen"] == nil)
  }

  @Test("an object kept past its drag reads the truth or raises a clear error, never stale data")
  func keptObjects() throws {
    let host = try makeHost(
      rules: """
        local keptInfo, keptTarget, keptItem
        return { box = { dropUpdated = function(info, target)
          if keptInfo == nil then
            keptInfo, keptTarget, keptItem = info, info.board:target("other"), info.items[1]
          else
            print(pcall(function() return keptInfo.items end))
            print(keptTarget.type, keptTarget.frame.x, keptTarget.parent and keptTarget.parent.id, keptItem.name)
          end
          return "move"
        end } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("list")
    try host.cancel()
    var replaced = nested()
    replaced[1] = DropTarget(
      id: "other", type: "box", frame: Rect(x: 300, y: 0, width: 50, height: 50), parent: "list")
    replaced[0].items = ["a"]
    try host.replaceBoard(Board(targets: replaced, items: [DragItem(id: "a", name: "Renamed")]))
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("list")
    let lines = host.printedLines
    #expect(lines.count == 2)
    #expect(lines.first?.contains("false\t") == true)
    #expect(lines.first?.contains("this info belongs to a drag that has ended") == true)
    #expect(lines.last == "box\t300\tlist\tRenamed")
  }

  @Test("an object whose target left the board raises naming the id")
  func goneTarget() throws {
    let host = try makeHost(
      rules: """
        local kept
        return { box = { dropUpdated = function(info, target)
          if kept == nil then kept = info.board:target("other") else print(pcall(function() return kept.items end)) end
          return "move"
        end } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("list")
    try host.cancel()
    try host.replaceBoard(Board(targets: [nested()[0]], items: [textItem("a"), textItem("b")]))
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("list")
    #expect(host.printedLines.first?.contains("target 'other' is no longer on the board") == true)
  }

  @Test(
    "NaN and infinite indexes are rule errors, never a crash",
    arguments: ["0/0", "math.huge", "-math.huge", "'two'"])
  func badInsertIndex(_ index: String) throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "move" end,
          performDrop = function(info, target) target:insert(info.items[1], \(index)) return true end,
        } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("other")
    #expect(try host.drop() == .failed)
    #expect(host.diagnostics.first?.message.contains("target:insert: index must be a") == true)
    #expect(host.diagnostics.first?.line == 3)
    #expect(host.board.items(in: "list") == ["a", "b"])
  }

  @Test(
    "a proposal index that is not a whole finite number is forbidden with a diagnostic",
    arguments: ["0/0", "math.huge", "2.5", "'x'"])
  func badProposalIndex(_ index: String) throws {
    let host = try makeHost(
      rules: "return { box = { dropUpdated = function() return { operation = 'move', index = \(index) } end } }",
      targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    #expect(try host.moveOver("other") == .forbidden)
    #expect(host.diagnostics.first?.message.contains("index that is not a whole, finite number") == true)
    #expect(host.diagnostics.first?.line == 1)
  }

  @Test("huge but finite indexes are clamped")
  func hugeIndex() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return { operation = "move", index = math.maxinteger } end,
          performDrop = function(info, target) target:insert(info.items[1], -1e300) return true end,
        } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("b")]))
    #expect(try host.moveOver("list") == .move)
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "list") == ["b", "a"])
  }

  @Test("a proposed index out of range is clamped to the list, for performDrop and the trace too")
  func proposedIndexIsClamped() throws {
    for (index, last) in [("99", true), ("math.mininteger", false)] {
      let host = try makeHost(
        rules: """
          return { box = {
            dropUpdated = function() return { operation = "move", index = \(index) } end,
            performDrop = function(info) print(info.index) return true end,
          } }
          """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
      let expected = last ? host.board.items(in: "list").count + 1 : 1
      try host.beginDrag(DragRequest(items: [.board("b")]))
      #expect(try host.moveOver("list") == .move)
      #expect(host.lastStep?.index == expected)
      #expect(try host.drop() == .performed)
      #expect(host.printedLines.last == "\(expected)")
    }
  }

  @Test("the board cannot be replaced, nor rules loaded, during a drag")
  func replaceDuringDrag() throws {
    let host = try makeHost(
      rules: "return { box = {} }", targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    #expect(throws: DragError.dragInProgress) { try host.replaceBoard(Board()) }
    #expect(throws: DragError.dragInProgress) { try host.declareType("x.y", conformsTo: []) }
    #expect(!host.loadRulesCollectingProblems(atPaths: ["x.lua"]).isEmpty)
    try host.cancel()
    try host.replaceBoard(Board())
  }

  @Test("data read from one target can be stored on another; objects and deep tables cannot")
  func copyData() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function(info, target)
            local list = info.board:target("list")
            target:set("tags", list.data.tags)
            target:set("all", list.data)
            local deep = {} for _ = 1, 40 do deep = { deep } end
            print(target.data.tags[2], target.data.all.count, pcall(target.set, target, "item", info.items[1]))
            print(pcall(target.set, target, "deep", deep))
            return "move"
          end,
        } }
        """, targets: nested(), items: [textItem("a"), textItem("b")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("a")]))
    try host.moveOver("other")
    let lines = host.printedLines
    #expect(lines.first?.hasPrefix("y\t2\tfalse\t") == true)
    #expect(lines.first?.contains("tables with a metatable") == true)
    #expect(lines.last?.contains("nested deeper than 32 levels") == true)
  }

  @Test("target:set refuses text that is not UTF-8, at the rule's line, rather than change it silently")
  func invalidUTF8IsRefused() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local answers = {}
          for _, value in ipairs({ "caf\\xE9", { note = "ok", tags = { "\\xFF" } }, "café" }) do
            local ok, message = pcall(target.set, target, "v", value)
            answers[#answers + 1] = tostring(ok) .. ":" .. tostring(message)
          end
          local ok, message = pcall(target.set, target, "\\xC0", 1)
          answers[#answers + 1] = tostring(ok) .. ":" .. tostring(message)
          print(table.concat(answers, " | "), target.data.v)
          return "move"
        end } }
        """, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.cancel()
    let line = host.printedLines.first ?? ""
    let refused = "holds text that is not valid UTF-8"
    let parts = line.split(separator: " | ").map(String.init)
    #expect(parts.count == 4, "\(line)")
    #expect(parts[0].hasPrefix("false:") && parts[0].contains(refused))
    #expect(parts[1].hasPrefix("false:") && parts[1].contains(refused))
    #expect(parts[2] == "true:nil")
    #expect(parts[3].hasPrefix("false:") && parts[3].contains("'?' holds text") && parts[3].hasSuffix("café"))
  }
}

@Suite("Host memory account")
struct HostMemoryAccountTests {
  @Test("data a file stores on its targets has a share of its own, as large as a file's memory cap")
  func storedDataCounts() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function(info, target)
            local chunk = string.rep("d", 4 << 20)
            for i = 1, 100 do
              local ok, message = pcall(target.set, target, "k" .. i, chunk)
              if not ok then print(i, message) return "forbidden" end
            end
            return "move"
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory,
      limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 64 << 20, maxTime: .zero))
    try host.beginDrag(DragRequest(items: [.board("x")]))
    let proposal = try host.moveOver("b")
    #expect(proposal == .forbidden)
    let line = host.printedLines.first ?? ""
    #expect(
      line.contains("target:set: this file's share of the board's data cap, \(64 << 20) bytes, is full"), "\(line)")
    // The library names the setting that raises the cap, never a command-line flag.
    #expect(line.hasSuffix("raise it with LuaLimits.maxMemory)"), "\(line)")
    // Fifteen chunks of 4 MiB fit under 64 MiB with their keys; the sixteenth does not.
    #expect(line.hasPrefix("16\t"), "\(line)")
  }

  @Test("a host's memory in use counts the data its rules stored on the board, which a test's cap covers")
  func hostCountsItsBoardData() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "move" end,
          performDrop = function(info, target) target:set("blob", string.rep("b", 2 << 20)) return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.board.storedDataBytes > 2 << 20)
    // The board's copy counts on top of the rule files' heaps (which may keep theirs).
    #expect(host.memoryInUse == host.files.memoryInUse + host.board.storedDataBytes)
  }

  @Test("past a thousand diagnostics a host keeps the start of each message and no traceback")
  func diagnosticsStayBounded() throws {
    // A 16 KiB error on every step: the red team's 150,000 steps held 1.6 GB of them.
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        local message = string.rep("e", 16 * 1024)
        return { box = { dropUpdated = function() error(message) end } }
        """, targets: row(["a"]), items: [], directory: directory)
    // Fifteen drags of 100 raising steps: each drag keeps its 100 (the per-drag cap,
    // ErrorFloodTests), and the host's list across drags is what this test bounds.
    for _ in 0..<15 {
      try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
      for step in 0..<DragEngine.maximumDiagnosticsPerDrag {
        try host.movePointer(to: Point(x: Double(step % 90) + 5, y: 50))
      }
      try host.cancel()
    }
    #expect(host.diagnostics.count == 1_500)
    #expect(host.diagnosticsDropped == 0)
    let first = try #require(host.diagnostics.first)
    #expect(first.message.utf8.count > 8_000)
    #expect(!first.traceback.isEmpty)
    let late = try #require(host.diagnostics.last)
    #expect(late.message.utf8.count < 400, "\(late.message.utf8.count)")
    #expect(late.message.hasSuffix("[cut: the host keeps 1000 diagnostics whole]"))
    #expect(late.traceback.isEmpty)
    #expect(late.line == 2)
  }

  @Test("the copies a drag makes count against the cap until it ends")
  func copiesCount() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = { dropUpdated = function(info)
          local made = 0
          for _ = 1, 200000 do
            local ok = pcall(function() return info.items[1]:copy() end)
            if not ok then break end
            made = made + 1
          end
          print(made)
          return "move"
        end } }
        """, targets: row(["a"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory,
      limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 8 << 20, maxTime: .zero))
    var made: [Int] = []
    for _ in 0..<2 {
      try host.beginDrag(DragRequest(items: [.board("x")]))
      try host.moveOver("a")
      try host.cancel()
      made += host.printedLines.compactMap { Int($0) }
    }
    #expect(made.count == 2)
    #expect((made.first ?? 0) > 1_000 && (made.first ?? .max) < 200_000, "\(made)")
    // The copies of an ended drag no longer count: the next drag makes as many again
    // (give or take what the Lua heap holds at the time).
    #expect(abs((made.first ?? 0) - (made.last ?? 0)) < (made.first ?? 0) / 50, "\(made)")
  }

  @Test("decodeJSON refuses text whose decoded value cannot fit under the cap")
  func decodeJSONCounts() throws {
    let lua = try RuleFileState(limits: LuaLimits(maxMemory: 8 << 20))
    let decode = lua.droprulesGlobal.tableValue?["decodeJSON"]
    guard case .function(let function) = decode else {
      Issue.record("no decodeJSON")
      return
    }
    let text = "[" + String(repeating: "1,", count: 500_000) + "1]"
    let results = try lua.runtime.call(function, [.string(text)])
    #expect(results.first == .nil)
    #expect(results.dropFirst().first?.stringValue?.contains("memory limit") == true)
    // Short text of many small values: under 1/8 of the cap as text, but each value is
    // held three times on its way into Lua.
    let small = "[" + String(repeating: "0,", count: 400_000) + "0]"
    #expect(small.utf8.count * 8 < 8 << 20)
    let refused = try lua.runtime.call(function, [.string(small)])
    #expect(refused.first == .nil)
    #expect(refused.dropFirst().first?.stringValue?.contains("the text is too long to decode") == true)
    // What fits decodes.
    #expect(try lua.runtime.call(function, [.string("[1, 2, {\"a\": 3}]")]).first?.tableValue?.sequence.count == 3)
  }
}
