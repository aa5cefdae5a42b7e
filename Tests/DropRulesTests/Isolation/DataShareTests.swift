import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// Each rule file has its own share of the board's data cap, for the targets of the
/// types it serves (drag-only data included), and the items have one more: no file's
/// data can make another file's writes, or its drop, fail.
@Suite("Each rule file has its own share of the board's data cap")
struct DataShareTests {
  /// A 1 MiB cap; "hog" fills its own target h on every step, "calm" sets a small key on
  /// its own target c, on an item, and drops there.
  func host(_ directory: TemporaryDirectory) throws -> RuleHost {
    let hog = """
      local blob = string.rep("x", 200 * 1024)
      local n = 0
      return { hog = {
        dropUpdated = function(info, target)
          for wrote = 0, 7 do
            n = n + 1
            local ok, message = pcall(target.set, target, "blob" .. n, blob)
            if not ok then print("hog", (message:gsub("^.-: ", "")), wrote) return "forbidden" end
          end
          return "forbidden"
        end,
      } }
      """
    let calm = """
      return { calm = {
        dropUpdated = function(info, target)
          target:setForDrag("hover", true)
          return "move"
        end,
        performDrop = function(info, target)
          target:set("dropped", info.items[1].id)
          info.items[1]:set("landed", "calm")
          target:insert(info.items)
          return true
        end,
      } }
      """
    var targets = row(["h"], type: "hog") + row(["c"], type: "calm")
    targets[1].frame.x = 100
    let host = try RuleHost(limits: LuaLimits(maxMemory: 1 << 20))
    try host.loadRules(atPaths: [try directory.write("hog.lua", hog), try directory.write("calm.lua", calm)])
    try host.replaceBoard(
      Board(
        targets: targets
          + row(["s"], type: "shelf", items: ["s": ["x"]]).map {
            var shelf = $0
            shelf.frame.x = 200
            return shelf
          }, items: [textItem("x")]))
    return host
  }

  @Test("a file that fills its share gets the share's error; another file's writes and drop go on")
  func fullShareIsItsOwn() throws {
    let directory = try TemporaryDirectory()
    let host = try host(directory)
    try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.move]))
    _ = try host.moveOver("h")
    #expect(
      host.printedLines.first
        == "hog\tthis file's share of the board's data cap, 1048576 bytes, is full (the data on targets of the types "
        + "it serves, drag-only data included; every rule file has a share of its own, as large as its memory limit; raise "
        + "it with LuaLimits.maxMemory)\t5",
      "\(host.printedLines)")
    #expect(try host.moveOver("c") == .move)
    #expect(try host.drop() == .performed)
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics)")
    #expect(host.board.target("c")?.data["dropped"] == .string("x"))
    #expect(host.board.item("x")?.data["landed"] == .string("calm"))
  }

  @Test("a cancelled drag gives the share back: every drag fits the same five writes")
  func shareComesBack() throws {
    let directory = try TemporaryDirectory()
    let host = try host(directory)
    for _ in 0..<3 {
      try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.move]))
      _ = try host.moveOver("h")
      #expect(host.printedLines.first?.hasSuffix("\t5") == true, "\(host.printedLines)")
      try host.cancel()
      #expect(host.engine.storedDataBytes == 0)
    }
    #expect(host.board.target("h")?.data.isEmpty == true)
  }
}
