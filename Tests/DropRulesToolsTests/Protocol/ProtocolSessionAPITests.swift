import DropRulesLuaTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

@Suite("protocol session: the typed Swift API behind the protocol")
struct ProtocolSessionAPITests {
  @Test("a session drives drags with typed calls, each answered with its step")
  func typedDrag() throws {
    let directory = try TemporaryDirectory()
    let session = try ProtocolSession()
    let report = try session.loadRules([
      try directory.write(
        "rules.lua",
        "return { box = { dropUpdated = function() return 'move' end, "
          + "performDrop = function(info, box) box:insert(info.items) return true end } }")
    ])
    #expect(report.files == [directory.path + "/rules.lua"])
    try session.setBoard(try Board(targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")]))
    #expect(try session.beginDrag(DragRequest(items: [.board("x")])).refused == [])
    let over = try session.perform(.over("b", index: nil))
    #expect(over.proposal == .move && over.target == "b" && over.number == 1)
    let drop = try session.perform(.drop)
    #expect(drop.outcome == .performed && drop.number == 2)
    #expect(session.host.board.items(in: "b") == ["x"])
    #expect(throws: ProtocolSessionError.drag(.noDrag)) { try session.perform(.drop) }
  }

  @Test("loading rules that fail throws their problems and keeps the host and its rules")
  func failedLoadKeepsHost() throws {
    let directory = try TemporaryDirectory()
    let session = try ProtocolSession()
    try session.loadRules([try directory.write("good.lua", "return { box = {} }")])
    let host = session.host
    let bad = try directory.write("bad.lua", "return { box = { dropUpdate = 1 } }")
    #expect(
      throws: ProtocolSessionError.rules(
        RuleLoadError(problems: [
          RuleProblem(
            file: bad, line: 1, message: "unknown handler 'dropUpdate' in the rule for 'box'; did you mean dropUpdated?"
          )
        ]))
    ) { try session.loadRules([bad]) }
    #expect(session.host === host)
    #expect(session.ruleFiles == [directory.path + "/good.lua"])
  }

  @Test("the diagnostics of the drag are those since it began")
  func dragDiagnostics() throws {
    let directory = try TemporaryDirectory()
    let session = try ProtocolSession()
    try session.loadRules([
      try directory.write("rules.lua", "return { box = { dropEntered = function() error('no') end } }")
    ])
    try session.setBoard(try Board(targets: row(["a", "b"], items: ["a": ["x"]]), items: [textItem("x")]))
    for _ in 0..<2 {
      try session.beginDrag(DragRequest(items: [.board("x")]))
      try session.perform(.over("b", index: nil))
      try session.perform(.cancel)
      #expect(session.dragDiagnostics.map(\.message) == ["no"])
    }
    #expect(session.host.diagnostics.count == 2)
  }
}
