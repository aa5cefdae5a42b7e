import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

/// A copy never takes from its source, and each handler call is atomic: attacks that
/// lost items silently before, each kept.
@Suite("The drop contract protects data")
struct DataContractTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  /// A sink that inserts whatever is dropped, as it is, whatever the operation.
  static let naiveSink = """
    return {
      box = {
        dropUpdated = function(info) return info.modifiers.option and "copy" or "move" end,
        performDrop = function(info, target)
          target:insert(info.items)
          return true
        end,
      },
    }
    """

  @Test("under a copy-only drag, a performDrop that inserts the originals fails at its line and nothing moves")
  func copyOnlyDragKeepsTheSource() throws {
    let host = try makeHost(
      rules: Self.naiveSink, targets: row(["a", "b"], items: ["a": ["x", "y"]]), items: [textItem("x"), textItem("y")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x"), .board("y")], allowedOperations: [.copy]))
    #expect(try host.moveOver("b") == .copy)
    #expect(try host.drop() == .failed)
    #expect(host.board.items(in: "a") == ["x", "y"])
    #expect(host.board.items(in: "b").isEmpty)
    let diagnostic = try #require(host.diagnostics.first)
    #expect(diagnostic.line == 5)
    #expect(
      diagnostic.message.contains("a copy never takes from its source: 'x' stays in 'a'"), "\(diagnostic.message)")
  }

  @Test("a copy proposed with option, and copies inserted, leaves the originals and adds the copies")
  func copiesAreInserted() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target)
            for _, item in ipairs(info.items) do target:insert(item:copy()) end
            return true
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "a") == ["x"])
    #expect(host.board.items(in: "b") == ["x-copy1"])
  }

  @Test("a preview that moved the original, then a drop that became a copy, fails the drop and moves nothing")
  func previewMovedThenCopied() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(info, target) target:insert(info.items) end,
          dropUpdated = function(info) return info.modifiers.option and "copy" or "move" end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("b") == .move)
    #expect(host.currentBoard.items(in: "b") == ["x"])
    #expect(try host.setModifiers([.option]) == .copy)
    #expect(try host.drop() == .failed)
    #expect(host.board.items(in: "a") == ["x"])
    #expect(host.board.items(in: "b").isEmpty)
    let reason = try #require(host.trace.compactMap(\.outcomeReason).first)
    #expect(reason == .copyTookFromSource(target: "b", item: "x", source: "a"))
  }

  @Test("a source's dragEnded cannot take its items after a copy: its change is refused and rolled back")
  func dragEndedAfterACopy() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target) target:insert(info.items[1]:copy()) return true end,
          dragEnded = function(info, source)
            for _, item in ipairs(info.items) do source:remove(item) end
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "a") == ["x"])
    #expect(host.board.items(in: "b") == ["x-copy1"])
    let diagnostic = try #require(host.diagnostics.first)
    #expect(diagnostic.handler == .dragEnded)
    #expect(diagnostic.line == 5)
    #expect(diagnostic.message.contains("a copy never takes from its source"), "\(diagnostic.message)")
    #expect(
      diagnostic.message.contains("under a copy, leave the dragged items where they are")
        && !diagnostic.message.contains("insert item:copy()"), "a removal is not told to insert a copy")
  }

  @Test("a second rule for a type names the line of its key, as every load problem does")
  func duplicateTypeHasALine() throws {
    let host = try RuleHost()
    let first = try directory.write("a.lua", "return { box = { performDrop = function() return true end } }")
    let second = try directory.write("b.lua", "-- b\nreturn {\n  box = {},\n}")
    let problems = host.loadRulesCollectingProblems(atPaths: [first, second])
    let problem = try #require(problems.first { $0.message.contains("already has a rule in") })
    #expect(problem.file == second)
    #expect(problem.line == 3)
  }

  @Test("a preview that removes the item and then runs out of budget is rolled back; a later drop keeps the item")
  func failedPreviewIsRolledBack() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(info, target)
            local source = info.source
            source:remove(info.items[1])
            while true do end
          end,
          dropUpdated = function() return "move" end,
          performDrop = function() return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory,
      limits: LuaLimits(maxInstructions: 10_000))
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.moveOver("b") == .move)
    #expect(host.currentBoard.items(in: "a") == ["x"])
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "a") == ["x"])
    let diagnostic = try #require(host.diagnostics.first)
    #expect(diagnostic.handler == .dropEntered)
    #expect(diagnostic.message.hasSuffix("(what this call changed was rolled back)"), "\(diagnostic.message)")
  }

  @Test("a failed call's rollback leaves what earlier calls staged")
  func rollbackIsPerCall() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropEntered = function(info, target) target:set("hover", true) end,
          dropUpdated = function(info, target)
            target:set("updates", (target.data.updates or 0) + 1)
            if info.modifiers.option then error("no option here") end
            return "move"
          end,
          performDrop = function(info, target) target:insert(info.items) return true end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("b")
    #expect(try host.setModifiers([.option]) == .forbidden)
    #expect(host.currentBoard.target("b")?.data == ["hover": .bool(true), "updates": .integer(1)])
    #expect(try host.setModifiers([]) == .move)
    #expect(try host.drop() == .performed)
    #expect(host.board.target("b")?.data == ["hover": .bool(true), "updates": .integer(2)])
    #expect(host.board.items(in: "b") == ["x"])
  }
}
