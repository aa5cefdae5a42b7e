import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

/// Data another file made large costs a reader the keys it reads, not the whole data.
@Suite("Large shared data does not slow another file's reads")
struct LargeSharedDataTests {
  /// Target a of type a (file a's) beside target b of type b (file b's).
  static let twoTargets = ["a", "b"].enumerated().map { offset, id in
    DropTarget(id: id, type: id, frame: Rect(x: Double(offset) * 100, y: 0, width: 100, height: 100))
  }

  @Test("a file that floods its own target with drag-only keys does not spend the budget of another file reading it")
  func floodedTargetData() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      files: [
        (
          "a.lua",
          """
          local n = 0
          return { a = {
            dropUpdated = function(info)
              local a = info.board:target("a")
              for _ = 1, 300 do n = n + 1 a:setForDrag("k" .. n, n) end
              return "move"
            end,
            performDrop = function() return true end,
          } }
          """
        ),
        (
          "b.lua",
          """
          return { b = {
            dropUpdated = function(info)
              -- Another file's target, read-only to this file and flooded by its own.
              local t = info.board:target("a")
              if t.data.full then return "forbidden" end
              print(t.data.k1 ~= nil)
              return "move"
            end,
            performDrop = function() return true end,
          } }
          """
        ),
      ], targets: Self.twoTargets, items: [], directory: directory, limits: LuaLimits(maxInstructions: 100_000))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    for _ in 0..<200 { _ = try host.moveOver("a") }
    #expect(try host.moveOver("b") == .copy, "\(host.diagnostics.prefix(1))")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1))")
    #expect(host.printedLines.last == "true")
  }

  @Test("a file that makes the dragged item's data huge does not fill another file's heap")
  func hugeItemData() throws {
    let directory = try TemporaryDirectory()
    let host = try RuleHost(limits: LuaLimits(maxMemory: 4 * 1024 * 1024))
    try host.loadRules(atPaths: [
      try directory.write(
        "a.lua",
        """
        local big = string.rep("x", 768 * 1024)
        return { a = {
          dropUpdated = function() return "move" end,
          -- The target that takes the drop changes the items it receives.
          performDrop = function(info, target)
            local item = info.items[1]
            for i = 1, 4 do item:set("blob" .. i, big) end
            target:insert(info.items)
            return true
          end,
        } }
        """),
      try directory.write(
        "b.lua",
        """
        return { b = {
          dropUpdated = function(info)
            if info.items[1].data.locked then return "forbidden" end
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """),
    ])
    try host.replaceBoard(Board(targets: Self.twoTargets, items: []))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    _ = try host.moveOver("a")
    #expect(try host.drop() == .performed, "\(host.diagnostics.prefix(1))")
    // x now holds 3 MiB of data, in a's target; b reads one key of it.
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("b") == .move, "\(host.diagnostics.prefix(1))")
    try host.cancel()
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics.prefix(1))")
  }
}

extension LargeSharedDataTests {
  @Test(
    "large data read a key at a time: a kept table answers what it read, and refuses what it did not once the data changed"
  )
  func keptLargeData() throws {
    let directory = try TemporaryDirectory()
    let host = try makeHost(
      rules: """
        local kept
        return { box = {
          dropUpdated = function(info, box)
            if not kept then
              for i = 1, 100 do box:setForDrag("k" .. i, string.rep("v", 200)) end
              kept = box.data
              print(#kept.k1, kept.k2 ~= nil, kept.missing)
              return "move"
            end
            print(#kept.k1, pcall(function() return kept.k3 end))
            local count = 0
            for _ in pairs(box.data) do count = count + 1 end
            print(count)
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    _ = try host.moveOver("a")
    _ = try host.setModifiers([.shift])
    try host.cancel()
    let lines = host.printedLines
    #expect(lines.count == 3, "\(lines)")
    #expect(lines[0] == "200\ttrue\tnil")
    #expect(lines[1].hasPrefix("200\tfalse\t") && lines[1].contains("was read before the board changed"), "\(lines)")
    // Raised at the rule's line that read the key, not inside api.lua.
    #expect(lines[1].contains(":10: target.data was read before the board changed; read it again"), "\(lines)")
    #expect(lines[2] == "100")
  }
}
