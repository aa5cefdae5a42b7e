import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

@Suite("Transactions, negotiation and fall-through")
struct TransactionTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("an error halfway through performDrop rolls back every staged change")
  func rollbackOnError() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(info, target) target:set("hover", true) end,
          dropUpdated = function() return "move" end, performDrop = function(info, target)
            target:insert(info.items[1], 1)
            target:set("count", 1)
            error("disk full")
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .failed)
    #expect(host.board.items(in: "a") == ["x"])
    #expect(host.board.target("b")?.data.isEmpty == true)
    let diagnostic = try #require(host.diagnostics.first)
    #expect(diagnostic.message == "disk full")
    #expect(diagnostic.handler == .performDrop)
    #expect(diagnostic.target == "b")
    #expect(diagnostic.line == 6)
    #expect(diagnostic.step == 2)
  }

  @Test("a cancelled live preview leaves nothing behind, and the last dropExited sees the outcome")
  func cancelledPreview() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(info, target) target:insert(info.items[1], 1) end,
          dropExited = function(info, target)
            if info.outcome then
              local ok, message = pcall(target.set, target, "touched", true)
              print(info.outcome, ok, message)
            end
          end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(host.currentBoard.items(in: "b") == ["x"])
    #expect(try host.cancel() == .cancelled)
    #expect(host.board.items(in: "a") == ["x"])
    #expect(host.board.items(in: "b").isEmpty)
    #expect(host.trace.last?.printed.first?.hasPrefix("cancelled\tfalse\t") == true)
    #expect(host.trace.last?.printed.first?.contains("read-only") == true)
  }

  @Test("move becomes copy where only copy is allowed, and the downgrade is reported")
  func negotiation() throws {
    let host = try makeHost(
      rules:
        "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }",
      targets: row(["a"]), items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))]))
    #expect(try host.moveOver("a") == .copy)
    // The drag itself (an external item from another app) allows copy only: that is what limited it.
    #expect(host.trace.last?.downgrade?.description == "move -> copy (only copy allowed: the drag allows copy)")
    #expect(host.trace.last?.downgrade?.limitedBy == [OperationLimit(source: nil, operations: [.copy])])
    try host.cancel()
    try host.beginDrag(DragRequest(items: [.external(textItem("note"))], allowedOperations: []))
    #expect(try host.moveOver("a") == .forbidden)
  }

  @Test("a nil proposal keeps the entry's last one, or copy")
  func nilProposal() throws {
    let host = try makeHost(
      rules:
        "return { box = { performDrop = function() return true end, dropUpdated = function(info) if info.modifiers.shift then return 'move' end end } }",
      targets: row(["a"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("a") == .copy)
    #expect(try host.setModifiers([.shift]) == .move)
    #expect(try host.setModifiers([]) == .move)
  }

  @Test("a nested target that refuses falls through to its parent, without leaving it")
  func nestedFallThrough() throws {
    let host = try makeHost(
      rules: """
        return {
          column = { performDrop = function() return true end },
          card = { validateDrop = function() return false end },
        }
        """,
      targets: [
        DropTarget(id: "column", type: "column", frame: Rect(x: 0, y: 0, width: 100, height: 300)),
        DropTarget(id: "card", type: "card", frame: Rect(x: 0, y: 100, width: 100, height: 50), parent: "column"),
      ], items: [], directory: directory)
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    #expect(try host.movePointer(to: Point(x: 50, y: 10)) == .copy)
    #expect(try host.movePointer(to: Point(x: 50, y: 120)) == .copy)
    #expect(try host.movePointer(to: Point(x: 50, y: 130)) == .copy)
    #expect(host.trace.last?.target == "column")
    #expect(host.callLog.filter { $0.hasPrefix("validateDrop card") }.count == 1)
  }

  @Test("an endless loop in dropUpdated is stopped and fails safe to forbidden")
  func runawayHandler() throws {
    let host = try makeHost(
      rules: "return { box = { dropUpdated = function() while true do end end } }",
      targets: row(["a"]), items: [], directory: directory, limits: LuaLimits(maxInstructions: 50_000))
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    #expect(try host.moveOver("a") == .forbidden)
    #expect(host.diagnostics.first?.message.contains("instruction budget of 50000") == true)
    #expect(try host.drop() == .cancelled)
  }

  @Test("an unknown handler name is a load error with a suggestion and the line")
  func unknownHandler() throws {
    let path = try directory.write(
      "typo.lua", "return {\n  box = {\n    dropUpdate = function() return 'move' end,\n  },\n}\n")
    let host = try RuleHost()
    let error = #expect(throws: RuleLoadError.self) { try host.loadRules(atPaths: [path]) }
    #expect(error?.problems.first?.line == 3)
    #expect(error?.problems.first?.message.contains("did you mean dropUpdated?") == true)
  }

  @Test("two files naming one type is an error naming both")
  func duplicateTypes() throws {
    let first = try directory.write("one.lua", "return { box = {} }")
    let second = try directory.write("two.lua", "return { box = {} }")
    let host = try RuleHost()
    let error = #expect(throws: RuleLoadError.self) { try host.loadRules(atPaths: [first, second]) }
    #expect(error?.description.contains(first) == true)
    #expect(error?.description.contains(second) == true)
  }
}
