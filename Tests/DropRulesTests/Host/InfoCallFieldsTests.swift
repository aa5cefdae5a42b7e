import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesModel

/// `info`'s fields of the call (index, operation, outcome, the item under the pointer,
/// hoverTime...) are read from the running call, once a call, and forgotten as the next
/// call begins: one info, kept or not, always shows the call it is read in.
@Suite("info reads the fields of the call it is read in")
struct InfoCallFieldsTests {
  /// A list "a" holding x and y (items 10 high), and a list "b" holding z.
  func board() -> (targets: [DropTarget], items: [DragItem]) {
    var targets = row(["a", "b"], items: ["a": ["x", "y"], "b": ["z"]])
    targets[0].itemExtent = 10
    targets[1].itemExtent = 10
    return (targets, ["x", "y", "z"].map(textItem))
  }

  @Test("one kept info shows each call's own index, over, operation and outcome, read twice in each call")
  func keptInfoFollowsTheCall() throws {
    let directory = try TemporaryDirectory()
    let setup = board()
    let host = try makeHost(
      rules: """
        local kept
        local function show(label, info)
          kept = kept or info
          local over = kept.over and kept.over.id or "-"
          -- Read twice: the second read is the call's kept reading, and agrees.
          assert(kept.index == info.index and kept.over == info.over)
          print(label, tostring(kept.index), over, tostring(kept.operation), tostring(kept.outcome),
            tostring(kept.outside), tostring(kept.wouldContainItself))
        end
        return { box = {
          dropEntered = function(info) show("entered", info) end,
          dropUpdated = function(info) show("updated", info) return "move" end,
          performDrop = function(info, target)
            show("perform", info)
            target:insert(info.items, info.index)
            return true
          end,
          dropExited = function(info) show("exited", info) end,
        } }
        """, targets: setup.targets, items: setup.items, directory: directory)
    try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.move]))
    _ = try host.movePointer(to: Point(x: 150, y: 2))
    _ = try host.movePointer(to: Point(x: 150, y: 12))
    #expect(try host.drop() == .performed)
    #expect(host.diagnostics.isEmpty, "\(host.diagnostics)")
    #expect(
      host.printedLines == [
        "entered\t1\tz\tnil\tnil\tfalse\tfalse", "updated\t1\tz\tnil\tnil\tfalse\tfalse",
        "updated\t2\t-\tnil\tnil\tfalse\tfalse", "perform\t2\t-\tmove\tnil\tfalse\tfalse",
        // After the drop, the item at place 2 of b is x, which went there.
        "exited\t2\tx\tnil\tperformed\tfalse\tfalse",
      ])
  }

  @Test("an info kept past its drag raises for the call's fields as for the others")
  func endedInfoRaises() throws {
    let directory = try TemporaryDirectory()
    let setup = board()
    let host = try makeHost(
      rules: """
        local kept
        return { box = {
          dropUpdated = function(info)
            if kept and kept ~= info then
              print(pcall(function() return kept.index end))
              print(pcall(function() return kept.outside end))
            end
            kept = info
            return "move"
          end,
        } }
        """, targets: setup.targets, items: setup.items, directory: directory)
    for _ in 0..<2 {
      try host.beginDrag(DragRequest(items: [.board("x")], allowedOperations: [.move]))
      _ = try host.moveOver("b")
      try host.cancel()
    }
    let ended = "this info belongs to a drag that has ended; use the info your handler is given"
    #expect(host.printedLines.count == 2)
    #expect(
      host.printedLines.enumerated().allSatisfy { line, printed in
        printed.hasPrefix("false\t") && printed.hasSuffix("rules.lua:\(line + 5): \(ended)")
      }, "\(host.printedLines)")
  }
}
