import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel

@Suite("The droprules global")
struct RuleAPITests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("decodeJSON reads a JSON payload; bad JSON gives nil and a message, not an error")
  func decodeJSON() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          performDrop = function() return true end, dropUpdated = function(info, target)
            local card, problem = droprules.decodeJSON(info.items[1]:data("public.json"))
            if card == nil then print(problem) return "forbidden" end
            print(card.assignee, card.points, #card.tags, card.tags[2], math.type(card.points))
            return "move"
          end,
        } }
        """, targets: row(["a", "b"], items: ["a": ["good", "bad"]]),
      items: [
        DragItem(
          id: "good",
          representations: [
            Representation(type: "public.json", payload: #"{"assignee":"ana","points":3,"tags":["ui","bug"]}"#)
          ]),
        DragItem(id: "bad", representations: [Representation(type: "public.json", payload: "{assignee: ana")]),
      ], directory: directory)
    try host.beginDrag(DragRequest(items: [.board("good")]))
    #expect(try host.moveOver("b") == .move)
    #expect(host.trace.last?.printed == ["ana\t3\t2\tbug\tinteger"])
    _ = try host.cancel()

    try host.beginDrag(DragRequest(items: [.board("bad")]))
    #expect(try host.moveOver("b") == .forbidden)
    #expect(
      host.trace.last?.printed == [
        "droprules.decodeJSON: not valid JSON (line 1, column 2: expected a key in quotes, found 'assignee'): "
          + "{assignee: ana"
      ])
    #expect(host.diagnostics.isEmpty)
  }

  @Test("target:insert takes a list of items; anything else in the list is an error at the rule's line")
  func insertList() throws {
    let host = try makeHost(
      rules: """
        return { box = {
          dropUpdated = function() return "move" end, performDrop = function(info, target)
            if target.id == "b" then target:insert(info.items, 1) return true end
            target:insert({ info.items[1], "x" }, 1)
          end,
        } }
        """, targets: row(["a", "b", "c"], items: ["a": ["x", "y"]]), items: [textItem("x"), textItem("y")],
      directory: directory)
    try host.beginDrag(DragRequest(items: [.board("y"), .board("x")]))
    try host.moveOver("b")
    #expect(try host.drop() == .performed)
    #expect(host.board.items(in: "b") == ["y", "x"])

    try host.beginDrag(DragRequest(items: [.board("x")]))
    try host.moveOver("c")
    #expect(try host.drop() == .failed)
    let diagnostic = try #require(host.diagnostics.first)
    #expect(diagnostic.line == 4)
    #expect(diagnostic.message.contains("target:insert expects an item"))
    #expect(host.board.items(in: "b") == ["y", "x"])
  }
}
