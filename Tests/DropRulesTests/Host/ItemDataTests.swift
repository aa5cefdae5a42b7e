import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

/// Items carry their own JSON data (`item.data`, `item:set`), staged like target data;
/// `droprules.encodeJSON`; `canDrag` sees the drag's info.
@Suite("Item data, encodeJSON, and what canDrag sees")
struct ItemDataTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  func card(_ id: String, _ data: [String: JSONValue] = [:]) -> DragItem {
    DragItem(id: id, representations: [Representation(type: "public.plain-text", payload: id)], data: data)
  }

  static let archiveRules = """
    return { box = {
      dropUpdated = function(info, box)
        local item = info.items[1]
        print(item.data.priority, item.data.tags and item.data.tags[2], item:data("public.plain-text"))
        if info.modifiers.shift then item:set("half", true) error("boom") end
        return "move"
      end,
      performDrop = function(info, box)
        local item = info.items[1]
        item:set("archived", true)
        item:set("priority", nil)
        print(item.data.archived, item.data.priority, pcall(function() item.data.x = 1 end))
        box:insert(item)
        return not info.modifiers.option
      end,
    } }
    """

  @Test("item.data reads the item's own data; item:set is staged, committed by a drop, rolled back otherwise")
  func stagedLikeTargetData() throws {
    let host = try makeHost(
      rules: Self.archiveRules, targets: row(["a", "b"], items: ["a": ["x"]]),
      items: [card("x", ["priority": .integer(2), "tags": .array([.string("a"), .string("b")])])],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")], modifiers: [.option]))
    _ = try host.moveOver("b")
    #expect(try host.drop() == .failed)
    #expect(host.board.item("x")?.data["archived"] == nil, "a failed drop rolls item data back")
    #expect(host.board.item("x")?.data["priority"] == .integer(2))
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("b") == .move)
    #expect(try host.setModifiers([.shift]) == .forbidden)
    #expect(try host.setModifiers([]) == .move)
    #expect(try host.drop() == .performed)
    #expect(host.printedLines.first == "2\tb\tx")
    #expect(host.printedLines.last?.hasPrefix("true\tnil\tfalse\t") == true, "\(host.printedLines)")
    #expect(host.board.item("x")?.data == ["archived": .bool(true), "tags": .array([.string("a"), .string("b")])])
    #expect(host.diagnostics.first?.message.hasSuffix("(what this call changed was rolled back)") == true)
  }

  @Test("a copy carries the data; a copy under a copy drag leaves the original's alone")
  func copiesCarryData() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, box)
            local copy = info.items[1]:copy()
            copy:set("copied", true)
            box:insert(copy)
            return true
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [card("x", ["title": .string("X")])],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    _ = try host.moveOver("b")
    #expect(try host.drop() == .performed)
    let copyID = try #require(host.board.items(in: "b").first)
    #expect(host.board.item(copyID)?.data == ["title": .string("X"), "copied": .bool(true)])
    #expect(host.board.item("x")?.data == ["title": .string("X")])
  }

  @Test("item data counts against the board's data cap, and what cannot be JSON is refused at the rule's line")
  func capsAndShapes() throws {
    let host = try makeHost(
      rules: """
        local piece = string.rep("x", 10 * 1024)
        local big = {}
        for i = 1, 250 do big[i] = piece end
        return { box = {
          dropUpdated = function() return "copy" end,
          -- The target that takes the drop changes the items it receives.
          performDrop = function(info)
            local item = info.items[1]
            print(pcall(item.set, item, "big", big))
            print(pcall(item.set, item, "big2", big))
            print(pcall(item.set, item, "nan", 0 / 0))
            print(pcall(item.set, item, 1, true))
            local cycle = {}
            cycle.self = cycle
            print(pcall(item.set, item, "cycle", cycle))
            return true
          end,
        } }
        """, targets: row(["a"]), items: [], directory: directory,
      limits: LuaLimits(maxMemory: 4 * 1024 * 1024))
    try host.beginDrag(DragRequest(items: [.external(card("x"))]))
    _ = try host.moveOver("a")
    _ = try host.drop()
    let lines = host.printedLines
    #expect(lines.count == 5, "\(lines)")
    #expect(lines[0] == "true", "2.5 MiB fits under a 4 MiB cap")
    #expect(lines[1].hasPrefix("false\t") && lines[1].contains("data cap"), "\(lines[1])")
    #expect(lines[2].contains("numbers must be finite"), "\(lines[2])")
    #expect(lines[3].contains("item:set expects a string key, got number"), "\(lines[3])")
    #expect(lines[4].hasPrefix("false\t"), "\(lines[4])")
    #expect(host.diagnostics.isEmpty)
  }

  @Test("a cyclic value is walked once by the text check: bad text in it is refused, and a cycle, never a hang")
  func cyclicValuesAreWalkedOnce() throws {
    let host = try makeHost(
      rules: #"""
        return { box = {
          dropUpdated = function(info, target)
            local bad = { "fine" }
            bad.self, bad.inner = bad, { back = bad, text = "\xC0" }
            local good = { "fine" }
            good.self = good
            for _, value in ipairs({ bad, good }) do
              print(pcall(target.set, target, "k", value))
              local item = info.items[1]
              print(pcall(item.set, item, "k", value))
            end
            return "move"
          end,
        } }
        """#, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(card("x"))]))
    _ = try host.moveOver("a")
    try host.cancel()
    let lines = host.printedLines
    #expect(lines.count == 4, "\(lines)")
    for line in lines.prefix(2) { #expect(line.hasPrefix("false\t") && line.contains("not valid UTF-8"), "\(line)") }
    for line in lines.dropFirst(2) {
      #expect(line.hasPrefix("false\t") && !line.contains("UTF-8"), "a cycle is refused as one: \(line)")
    }
    #expect(host.diagnostics.isEmpty)
  }

  @Test("encodeJSON is decodeJSON's reverse; what JSON cannot hold is nil and a message, never a raise")
  func encodeJSON() throws {
    let host = try makeHost(
      rules: #"""
        return { box = {
          dropUpdated = function()
            local text = droprules.encodeJSON({ b = { 1, 2.5, "x" }, a = true, n = math.maxinteger, f = 1.0 })
            print(text)
            local back = droprules.decodeJSON(text)
            print(math.type(back.n), math.type(back.f), back.b[3])
            print(droprules.encodeJSON({}), droprules.encodeJSON("é\n"), droprules.encodeJSON(nil))
            local cycle = {}
            cycle[1] = cycle
            print(droprules.encodeJSON(cycle))
            print(droprules.encodeJSON({ 0 / 0 }))
            print(droprules.encodeJSON({ 1, x = 2 }))
            print(droprules.encodeJSON(print))
            local shared = { 1 }
            print(droprules.encodeJSON({ shared, shared }))
            return "forbidden"
          end,
        } }
        """#, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(card("x"))]))
    _ = try host.moveOver("a")
    try host.cancel()
    let lines = host.printedLines
    #expect(lines.count == 8, "\(lines)")
    #expect(lines[0] == #"{"a":true,"b":[1,2.5,"x"],"f":1.0,"n":9223372036854775807}"#)
    #expect(lines[1] == "integer\tfloat\tx")
    #expect(lines[2] == "{}\t\"é\\n\"\tnull")
    #expect(lines[3] == "nil\tdroprules.encodeJSON: the value contains itself, which JSON cannot hold")
    #expect(lines[4].hasPrefix("nil\tdroprules.encodeJSON: numbers must be finite"))
    #expect(lines[5].hasPrefix("nil\tdroprules.encodeJSON: a table stored as data cannot mix"))
    #expect(lines[6].hasPrefix("nil\tdroprules.encodeJSON: "))
    #expect(lines[7] == "[[1],[1]]", "a table reached twice is no cycle")
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics)")
  }

  @Test(
    "encodeJSON answers, never raises, for what the host refuses: depth, shared subtables, invalid UTF-8, equal keys")
  func encodeJSONAttacks() throws {
    let host = try makeHost(
      rules: #"""
        local enc = droprules.encodeJSON
        local function nest(n) local t = {} for _ = 1, n do t = { t } end return t end
        local function dag(n) local t = { 1 } for _ = 1, n do t = { t, t } end return t end
        return { box = {
          dropUpdated = function()
            print(pcall(enc, nest(40)))
            print(pcall(enc, dag(40)))
            print(pcall(enc, { s = "\xff\xfe" }))
            print(pcall(enc, { ["\u{e9}"] = 1, ["e\u{301}"] = 2 }))
            local s = string.rep("y", 65536) local a = {} for i = 1, 200 do a[i] = s end
            local b = {} for i = 1, 200 do b[i] = a end
            print(pcall(enc, b))
            return "forbidden"
          end,
        } }
        """#, targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(card("x"))]))
    _ = try host.moveOver("a")
    try host.cancel()
    let lines = host.printedLines
    #expect(lines.count == 5, "\(lines)")
    #expect(lines.allSatisfy { $0.hasPrefix("true\tnil\tdroprules.encodeJSON: ") }, "\(lines)")
    #expect(lines[2].contains("not valid UTF-8"))
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics)")
  }

  @Test("copies hold copies of their item's data under the board's data cap: a loop of copies is refused, not 2 GB")
  func copiesCountTheirData() throws {
    let blob = JSONValue.string(String(repeating: "x", count: 1 << 20))
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, box)
            local copies = {}
            for _ = 1, 2000 do
              local ok, copy = pcall(info.items[1].copy, info.items[1])
              if not ok then print(#copies, copy:match("data cap") ~= nil) break end
              copies[#copies + 1] = copy
            end
            box:insert(copies)
            return true
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [card("x", ["blob": blob])],
      directory: directory, limits: LuaLimits(maxMemory: 4 * 1024 * 1024))
    try host.beginDrag(DragRequest(items: [.board("x")]))
    _ = try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.printedLines == ["3\ttrue"], "\(host.printedLines)")
    #expect(host.board.items(in: "b").count == 3)
    #expect(host.memoryInUse < 16 * 1024 * 1024)
  }

  @Test("canDrag(item, source, info) sees the board, the modifiers and every item gathered; the info then ends")
  func canDragSeesTheDrag() throws {
    let host = try makeHost(
      rules: """
        local kept
        return { box = {
          canDrag = function(item, source, info)
            kept = info
            local ids = {}
            for _, each in ipairs(info.items) do ids[#ids + 1] = each.id end
            print(item.id, source.id, table.concat(ids, ","), tostring(info.modifiers.option),
              #info.board:target("b").items, pcall(source.set, source, "k", 1))
            return not (item.data.locked and not info.modifiers.option)
          end,
          dropUpdated = function(info)
            print("source", info.source and info.source.id, pcall(function() return kept.items end))
            return "move"
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x", "y"], "b": ["z"]]),
      items: [card("x", ["locked": .bool(true)]), card("y"), card("z")], directory: directory)
    let start = try host.beginDrag(DragRequest(items: [.board("x"), .board("y")]))
    #expect(start.refused == ["x"])
    _ = try host.moveOver("b")
    try host.cancel()
    let lines = host.printedLines
    #expect(lines[0].hasPrefix("x\ta\tx,y\tnil\t1\tfalse\t"), "\(lines)")
    #expect(lines[0].contains("read-only"))
    #expect(lines[2].hasPrefix("source\ta\tfalse\t"), "a kept gathering info raises: \(lines)")
    let withOption = try host.beginDrag(DragRequest(items: [.board("x")], modifiers: [.option]))
    #expect(withOption.refused == [])
    try host.cancel()
  }
}
