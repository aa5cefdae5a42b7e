import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// Objects a rule keeps across calls and drags read the board as it is now, whatever the
/// rule's budget: nothing the host does to keep them honest runs as Lua.
@Suite("Kept objects never lie")
struct KeptObjectTests {
  /// A grid of `count` targets whose data is `{ v = value }`.
  private func board(_ count: Int, value: Int) throws -> Board {
    let targets = (0..<count).map { index in
      DropTarget(
        id: "t\(index)", type: "box", frame: Rect(x: Double(index) * 10, y: 0, width: 10, height: 10),
        data: ["v": .integer(Int64(value))])
    }
    return try Board(targets: targets, items: [])
  }

  /// Keeps 10 more target objects on every call (reading their data, so that it is
  /// kept too), and counts kept objects whose data is not `want`.
  private let keepingRule = """
    local kept = {}
    local want = 1
    return { box = {
      dropUpdated = function(info)
        if info.modifiers.option then want = 2 end
        local first = #kept
        for n = first, first + 9 do
          local target = info.board:target("t" .. n)
          if target then kept[#kept + 1] = target; local _ = target.data.v end
        end
        local wrong, checked = 0, 0
        for n = 1, #kept, math.max(1, #kept // 10) do
          checked = checked + 1
          if kept[n].data.v ~= want then wrong = wrong + 1 end
        end
        print(#kept, checked, wrong)
        return "move"
      end,
    } }
    """

  @Test("after a new board, thousands of kept objects read its data under a budget far too small to walk them")
  func newBoardUnderATinyBudget() throws {
    let directory = try TemporaryDirectory()
    let count = 3_000
    let host = try makeHost(
      rules: keepingRule, targets: [], items: [], directory: directory, limits: LuaLimits(maxInstructions: 8_000))
    try host.replaceBoard(try board(count, value: 1))
    try host.beginDrag(DragRequest(items: [.external(textItem("a"))]))
    for step in 0..<(count / 10) {
      try host.movePointer(to: Point(x: 5 + Double(step % 2), y: 5))
    }
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1))")
    #expect(host.printedLines.last?.hasPrefix("\(count)\t") == true)

    try host.replaceBoard(try board(count, value: 2))
    try host.beginDrag(DragRequest(items: [.external(textItem("a"))], modifiers: [.option]))
    try host.movePointer(to: Point(x: 5, y: 5))
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1))")
    let last = try #require(host.printedLines.last).split(separator: "\t")
    #expect(last.count == 3)
    #expect(Int(last[1]) ?? 0 >= 10)
    #expect(last[2] == "0", "kept objects read the old board: \(last)")
  }

  @Test("a rollback of hundreds of staged changes is read back by kept objects, under a tiny budget")
  func rollbackUnderATinyBudget() throws {
    let directory = try TemporaryDirectory()
    let count = 400
    let host = try makeHost(
      rules: """
        local kept = {}
        return { box = {
          dropUpdated = function(info)
            if info.modifiers.option then
              local wrong = 0
              for n = 1, #kept, 20 do if kept[n].data.v ~= 1 then wrong = wrong + 1 end end
              print(#kept, wrong)
              return "move"
            end
            local first = #kept
            for n = first, first + 9 do
              local target = info.board:target("t" .. n)
              if target then
                kept[#kept + 1] = target
                target:set("v", 99)
                local _ = target.data.v
              end
            end
            return "move"
          end,
          performDrop = function() error("refused") end,
        } }
        """, targets: [], items: [], directory: directory,
      // About 3,060 instructions a call: 10 lookups, changes and reads. The host's
      // rollback of 400 changes is not the rule's to pay.
      limits: LuaLimits(maxInstructions: 3_500))
    try host.replaceBoard(try board(count, value: 1))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    for step in 0..<(count / 10) {
      try host.movePointer(to: Point(x: 5 + Double(step % 2), y: 5))
    }
    try host.drop()
    #expect(host.diagnostics.count == 1, "\(host.diagnostics.prefix(3).map(\.message))")
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], modifiers: [.option]))
    try host.movePointer(to: Point(x: 5, y: 5))
    try host.cancel()
    #expect(host.printedLines == ["\(count)\t0"], "kept objects read the rolled-back change")
  }

  @Test("an item kept from one drag reads where it is after the next drag moved it")
  func keptItemsFollowMoves() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        local kept
        return { box = {
          dropUpdated = function(info, target)
            kept = kept or info.items[1]
            print(kept.container and kept.container.id, kept.index)
            return "move"
          end,
          performDrop = function(info, target) target:insert(info.items); return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    try host.drop()
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("a")
    try host.cancel()
    #expect(host.printedLines == ["b\t1"])
  }

  @Test(
    "under a 40-instruction budget, rules load and a kept info raises: the sandbox, the API and ending a drag are the host's work"
  )
  func keptInfoRaisesUnderATinyBudget() throws {
    let directory = try TemporaryDirectory()
    // The answer says whether reading the kept info raised: forbidden if it did.
    let host = try makeHost(
      rules: """
        local kept
        return { box = { performDrop = function() return true end, dropUpdated = function(info)
          local answer = "move"
          if kept then answer = pcall(function() return kept.items end) and "copy" or "forbidden" end
          kept = info
          return answer
        end } }
        """, targets: row(["a"]), items: [], directory: directory, limits: LuaLimits(maxInstructions: 40))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    #expect(try host.moveOver("a") != .forbidden)
    try host.cancel()
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    #expect(try host.moveOver("a") == .forbidden, "a kept info read a drag that had ended")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(3))")
  }

  @Test("a kept info reads the modifiers of now, though the engine does not tell the rules they changed")
  func keptInfoReadsTheDragOfNow() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        local kept
        return { box = { performDrop = function() return true end, dropUpdated = function(info)
          kept = kept or info
          print(kept.modifiers.option, kept.allowedOperations.move, #kept.items, kept.source)
          return kept.modifiers.option and "copy" or "move"
        end } }
        """, targets: row(["a"]), items: [], directory: directory, limits: LuaLimits(maxInstructions: 2_000))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], allowedOperations: [.copy, .move]))
    #expect(try host.moveOver("a") == .move)
    #expect(try host.setModifiers([.option]) == .copy)
    #expect(try host.setModifiers([]) == .move)
    try host.cancel()
    #expect(host.printedLines == ["nil\ttrue\t1\tnil", "true\ttrue\t1\tnil", "nil\ttrue\t1\tnil"])
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))], allowedOperations: [.copy]))
    _ = try host.moveOver("a")
    try host.cancel()
    #expect(host.diagnostics.count == 1, "\(host.diagnostics.prefix(3).map(\.message))")
    #expect(host.diagnostics.first?.message.contains("drag that has ended") == true)
  }

  @Test("a nil field of a large drag (an outside drag's source) is not read again from the host on every read")
  func nilDragFieldsAreReadOnce() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = { dropUpdated = function(info)
          local found = 0
          for _ = 1, 1000 do if info.source ~= nil then found = found + 1 end end
          print(found, #info.items)
          return "copy"
        end } }
        """, targets: row(["a"]), items: [], directory: directory)
    // Read again each time, 1,000 reads would make a list of 2,000 items each: far over
    // the default budget.
    let items = (0..<2_000).map { DraggedItem.external(textItem("x\($0)")) }
    try host.beginDrag(DragRequest(items: items))
    try host.moveOver("a")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1).map(\.message))")
    #expect(host.printedLines == ["0\t2000"])
  }

  @Test("a point kept past its drag raises on every read: a field, an index, its length, a walk")
  func keptPointRaises() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        local kept
        return { box = { dropUpdated = function(info)
          if kept then
            local answers = {}
            for _, read in ipairs({ function() return kept.x end, function() return kept[1] end,
              function() return #kept end, function() return next(kept) end }) do
              local ok, message = pcall(read)
              answers[#answers + 1] = tostring(ok) .. ":" .. tostring(message):match("drag that has ended") 
            end
            print(table.concat(answers, " "))
          end
          kept = info.location
          return "move"
        end } }
        """, targets: row(["a"]), items: [], directory: directory)
    for _ in 0..<2 {
      try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
      try host.moveOver("a")
      try host.cancel()
    }
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1).map(\.message))")
    let ended = "false:drag that has ended"
    #expect(host.printedLines == [[ended, ended, ended, ended].joined(separator: " ")])
  }

  @Test("fields that read nil (a top-level target's parent, an outside drag's source) answer nil every time")
  func nilFieldsReadNil() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local answers = {}
          for n = 1, 3 do answers[n] = tostring(target.parent) .. "/" .. target.type .. "/" .. tostring(info.source) end
          print(table.concat(answers, " "))
          return "move"
        end } }
        """, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1))")
    #expect(host.printedLines == ["nil/box/nil nil/box/nil nil/box/nil"])
  }
}
