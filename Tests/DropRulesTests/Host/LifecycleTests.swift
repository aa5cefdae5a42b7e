import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

@Suite("Drag lifecycle")
struct LifecycleTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  static let loggingRule = """
    local function log(name) return function(info, target) print(name .. " " .. target.id) end end
    return {
      box = {
        validateDrop = function(info, target) return not target.data.closed end,
        dropEntered = log("entered"),
        dropUpdated = function(info, target) return info.modifiers.option and "copy" or "move" end,
        dropExited = function(info, target) print("exited " .. target.id .. " " .. tostring(info.outcome)) end,
        performDrop = function(info, target)
          for _, item in ipairs(info.items) do
            target:insert(info.operation == "copy" and item:copy() or item, info.index)
          end
          return true
        end,
      },
    }
    """

  @Test("entering, moving within, leaving and dropping call the handlers in order")
  func handlerOrder() throws {
    let host = try makeHost(
      rules: Self.loggingRule, targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.movePointer(to: Point(x: 10, y: 10)) == .move)
    #expect(try host.movePointer(to: Point(x: 20, y: 10)) == .move)
    #expect(try host.setModifiers([.option]) == .copy)
    #expect(try host.movePointer(to: Point(x: 150, y: 10)) == .copy)
    #expect(try host.drop() == .performed)
    #expect(
      host.callLog == [
        "validateDrop a -> true", "dropEntered a -> nil", "dropUpdated a -> move",
        "dropUpdated a -> move",
        "dropUpdated a -> copy",
        "dropExited a -> nil", "validateDrop b -> true", "dropEntered b -> nil", "dropUpdated b -> copy",
        "performDrop b -> true", "dropExited b -> nil",
      ])
    #expect(host.trace.last?.printed == ["exited b performed"])
    // A copy: the original stays in its source.
    #expect(host.board.items(in: "b") == ["x-copy1"])
    #expect(host.board.items(in: "a") == ["x"])
  }

  @Test("over nothing the proposal is cancel and a drop cancels")
  func overNothing() throws {
    let host = try makeHost(
      rules: Self.loggingRule, targets: row(["a"], items: ["a": ["x"]]), items: [textItem("x")], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")]))
    #expect(try host.movePointer(to: Point(x: 500, y: 500)) == .cancel)
    #expect(try host.drop() == .cancelled)
    #expect(host.callLog.isEmpty)
  }
}
