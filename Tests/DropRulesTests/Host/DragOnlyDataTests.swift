import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

/// `target:setForDrag`: data every handler of a drag reads, gone when the drag ends.
@Suite("Drag-only data: seen by the whole drag, never committed")
struct DragOnlyDataTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// Boxes a and b; a holds x. Entering a box highlights it for the drag; performDrop
  /// prints what it reads of both boxes, stores a key for good and moves the items.
  static let highlightRules = """
    return { box = {
      dropEntered = function(_, box) box:setForDrag("hover", true) box:setForDrag("label", "here") end,
      dropUpdated = function(info, box)
        print(box.id, box.data.hover, box.data.label, info.board:target("a").data.hover)
        return "move"
      end,
      dropExited = function(info, box) if not info.outcome then box:setForDrag("hover", nil) end end,
      performDrop = function(info, box)
        print("drop", box.data.hover, info.board:target("a").data.hover)
        box:set("count", #box.items + #info.items)
        box:insert(info.items)
        return true
      end,
    } }
    """

  @Test("every handler of the drag reads it, in any target; nil hides it; a drop commits none of it")
  func seenByTheDragNeverCommitted() throws {
    let host = try makeHost(
      rules: Self.highlightRules, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("a") == .move)
    #expect(try host.moveOver("b") == .move)
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["a\ttrue\there\ttrue", "b\ttrue\there\tnil", "drop\ttrue\tnil"])
    #expect(host.board.target("b")?.data == ["count": .integer(1)], "the stored key, and no drag-only one")
    #expect(host.board.target("a")?.data == [:])
    #expect(host.board.items(in: "b") == ["x"])
  }

  @Test("a cancelled drag and the next drag see none of it")
  func goneAfterTheDrag() throws {
    let host = try makeHost(
      rules: Self.highlightRules, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    _ = try host.moveOver("b")
    try host.cancel()
    #expect(host.board.target("b")?.data == [:])
    try host.beginDrag(DragRequest(items: [.board("x")]))
    _ = try host.moveOver("a")
    #expect(host.printedLines == ["a\ttrue\there\ttrue"], "b's label ended with the last drag")
    try host.cancel()
  }

  @Test("a handler that fails has its own drag-only changes undone, not the earlier ones")
  func atomicWithTheCall() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(_, box) box:setForDrag("step", "entered") end,
          dropUpdated = function(info, box)
            print(box.data.step)
            if info.modifiers.shift then box:setForDrag("step", "half") error("boom") end
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    #expect(try host.moveOver("b") == .copy)
    #expect(try host.setModifiers([.shift]) == .forbidden)
    #expect(try host.setModifiers([]) == .copy)
    try host.cancel()
    #expect(host.printedLines == ["entered", "entered", "entered"])
    #expect(host.diagnostics.first?.message.hasSuffix("(what this call changed was rolled back)") == true)
  }

  @Test("in the last dropExited and in dragEnded it changes nothing and raises nothing: the drag is over")
  func harmlessAfterTheDrop() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropExited = function(info, box)
            if info.outcome then
              print(pcall(box.setForDrag, box, "k", 1))
              print(box.data.k)
              print(pcall(box.set, box, "k", 1))
            end
          end,
          dragEnded = function(_, source)
            print(pcall(source.setForDrag, source, "k", 1))
            print(source.data.k)
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    _ = try host.moveOver("b")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics)")
    let lines = host.printedLines
    #expect(lines.count == 5, "\(lines)")
    #expect(lines.first?.hasPrefix("true") == true, "\(lines)")
    #expect(lines.dropFirst().first == "nil")
    // Other writes stay refused there: the board is read-only in the last dropExited.
    #expect(lines.dropFirst(2).first?.contains("read-only") == true, "\(lines)")
    #expect(lines.dropFirst(3).first?.hasPrefix("true") == true, "\(lines)")
    #expect(lines.last == "nil")
    #expect(host.board.target("b")?.data["k"] == nil)
  }

  @Test("it shares the board data's cap, and the room comes back when the drag ends")
  func sharesTheDataCap() throws {
    let host = try makeHost(
      rules: """
        -- 2.5 MiB as data, little in Lua: 250 references to one 10 KiB string.
        local big = {}
        local piece = string.rep("x", 10 * 1024)
        for i = 1, 250 do big[i] = piece end
        local calls = 0
        return { box = {
          dropUpdated = function(_, box)
            calls = calls + 1
            local ok, message = pcall(box.setForDrag, box, "big" .. calls % 2, big)
            print(ok, (message or ""):match("data cap") ~= nil)
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a"]), items: [], directory: directory, limits: LuaLimits(maxMemory: 4 * 1024 * 1024))
    for _ in 0..<2 {
      try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
      _ = try host.moveOver("a")
      _ = try host.setModifiers([.shift])
      try host.cancel()
      #expect(host.printedLines == ["true\tfalse", "false\ttrue"], "the second 2.5 MiB does not fit beside the first")
    }
  }

  @Test("a kept target and a kept data table: the target reads the drag's keys of now")
  func keptObjects() throws {
    let host = try makeHost(
      rules: """
        local keptTarget, keptData
        return { box = {
          dropUpdated = function(_, box)
            keptTarget, keptData = keptTarget or box, keptData or box.data
            box:setForDrag("n", (box.data.n or 0) + 1)
            print(keptTarget.data.n, keptData.n)
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    _ = try host.moveOver("a")
    _ = try host.setModifiers([.shift])
    try host.cancel()
    // The kept data table is what `data` was when read: the drag had set nothing then.
    #expect(host.printedLines == ["1\tnil", "2\tnil"])
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))]))
    _ = try host.moveOver("a")
    try host.cancel()
    #expect(host.printedLines == ["1\tnil"], "the next drag starts from the target's own data")
  }

  @Test("the last write wins for reads: target:set shows through what setForDrag set, and a failed call undoes both")
  func lastWriteWins() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(_, box) box:setForDrag("badge", "hover") end,
          dropUpdated = function(info, box)
            if info.modifiers.shift then box:set("badge", "half") error("boom") end
            print(box.data.badge)
            return "move"
          end,
          performDrop = function(_, box)
            box:set("badge", "final")
            print(box.data.badge)
            box:setForDrag("badge", "late")
            print(box.data.badge)
            return true
          end,
        } }
        """, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    _ = try host.moveOver("a")
    _ = try host.setModifiers([.shift])
    _ = try host.setModifiers([])
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["hover", "hover", "final", "late"])
    #expect(host.board.target("a")?.data == ["badge": .string("final")])
  }
}
