import DropRulesTestSupport
import Foundation
import Testing

private let boxRules = """
  return { box = {
    dropUpdated = function(info, box)
      print("c is " .. (info.board:target("c") and "on the board" or "not on the board"))
      return "move"
    end,
    performDrop = function(info, box) box:insert(info.items) return true end,
  } }
  """

private let board = """
  {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x", "name": "X"}]},
               {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}
  """

@Suite("droprules serve")
struct ServeCommandTests {
  @Test("a client session: bad lines are answered and the server goes on; boards, rules and drags change")
  func session() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("box.lua", boxRules)
    try scratch.write("broken.lua", "return { box = { dropUpdate = 1 } }")
    try scratch.write("loop/loop.lua", "return { box = { dropUpdated = function() while true do end end } }")
    try scratch.write(
      "s.scenario.json", #"{"rules": ["box.lua"], "board": \#(board), "drag": {"items": ["x"]}, "steps": []}"#)
    let threeTargets = try JSONSerialization.jsonObject(with: Data(board.utf8)) as? [String: Any]
    var targets = threeTargets?["targets"] as? [[String: Any]] ?? []
    targets.append(["id": "c", "type": "box", "frame": [200, 0, 100, 100]])
    let requests = [
      try Serve.request(1, "version"),
      "not json",
      try Serve.request(2, "mvoe"),
      try Serve.request(3, "move", ["at": [1, 2]]),
      try Serve.request(4, "beginDrag", ["items": ["x"]]),
      try Serve.request(5, "move", ["at": [1, "x"]]),
      try Serve.request(6, "move", ["over": "b"]),
      try Serve.request(7, "load"),
      try Serve.request(8, "drop"),
      try Serve.request(9, "load", ["rules": ["broken.lua"]]),
      try Serve.request(10, "setBoard", ["targets": targets]),
      try Serve.request(11, "beginDrag", ["items": ["x"]]),
      try Serve.request(12, "move", ["over": "c"]),
      try Serve.request(nil, "cancel"),
      try Serve.request(13, "load", ["rules": ["loop"]]),
      try Serve.request(14, "beginDrag", ["items": ["x"]]),
      try Serve.request(15, "move", ["over": "b"]),
      try Serve.request(16, "cancel"),
      "",
      try Serve.request(17, "board"),
    ]
    let result = try Serve.run(["s.scenario.json"], requests: requests, in: scratch.url)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    let responses = try Serve.responses(result)
    #expect(responses.count == 18)
    guard responses.count == 18 else { return }
    #expect(responses.map { $0["id"] as? Int } == [1, nil] + Array(2...17))
    #expect(responses[0].result?["protocol"] as? Int == 1)
    #expect(responses[1].errorCode == -32700 && responses[1]["id"] is NSNull)
    #expect(responses[2].errorMessage == "method not found: 'mvoe'; did you mean move?")
    #expect(responses[3].errorMessage == "no drag in progress; begin one first")
    #expect(responses[4].result?["number"] as? Int == 0)
    #expect(responses[5].errorCode == -32602 && responses[5].errorData?["path"] as? String == "$.params.at[1]")
    #expect(responses[6].result?["proposal"] as? String == "move")
    let printed = (responses[6].result?["calls"] as? [[String: Any]])?.compactMap { $0["printed"] as? [String] }
    #expect(printed == [["c is not on the board"]])
    #expect(responses[7].errorCode == -32000 && responses[7].errorData?["kind"] as? String == "dragInProgress")
    #expect(responses[8].result?["outcome"] as? String == "performed")
    #expect(responses[9].errorCode == -32001)
    #expect(
      responses[9].errorData?["problems"] as? [String] == [
        "broken.lua:1: unknown handler 'dropUpdate' in the rule for 'box'; did you mean dropUpdated?"
      ])
    #expect(responses[10].result?["targets"] as? Int == 3)
    #expect(responses[11].result?["refused"] as? [String] == [])
    let printedOverC = (responses[12].result?["calls"] as? [[String: Any]])?.compactMap { $0["printed"] as? [String] }
    #expect(printedOverC == [["c is on the board"]])
    #expect(responses[13].result?["files"] as? [String] == ["loop/loop.lua"])
    #expect(responses[15].result?["proposal"] as? String == "forbidden")
    let errors = responses[15].result?["errors"] as? [[String: Any]]
    #expect((errors?.first?["message"] as? String)?.hasPrefix("instruction budget of 1000000") == true)
    #expect(responses[16].result?["outcome"] as? String == "cancelled")
    // The board setBoard gave, since the drags after it were cancelled.
    let finalBoard = responses[17].result?["targets"] as? [String: [String]]
    #expect(finalBoard == ["a": ["x"], "b": [], "c": []])
  }

  @Test("serve's setup problems end it before it reads a request, with exit 2 (64 for bad options)")
  func setupErrors() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("broken.lua", "return { box = { dropUpdate = 1,\n perform = 2 } }")
    let missing = try Serve.run(["nope.scenario.json"], requests: [], in: scratch.url)
    #expect(missing.status == 2)
    #expect(missing.stderr == "error: nope.scenario.json: cannot read the file\n")
    let broken = try Serve.run(["--rules", "broken.lua"], requests: [], in: scratch.url)
    #expect(broken.status == 2)
    #expect(
      broken.stderr == """
        error: broken.lua:1: unknown handler 'dropUpdate' in the rule for 'box'; did you mean dropUpdated?
        error: broken.lua:2: unknown handler 'perform' in the rule for 'box'; valid keys are accepts, deletes, \
        duplicates, validateDrop, dropEntered, dropUpdated, dropExited, performDrop, canDrag, dragOperations, dragEnded, dragPreview, announce

        """)
    let noFolder = try Serve.run(["--rules", "nowhere"], requests: [], in: scratch.url)
    #expect(noFolder.status == 2)
    #expect(noFolder.stderr == "error: nowhere: no such rule file or folder\n")
    let badLimit = try Serve.run(["--max-time", "-1"], requests: [], in: scratch.url)
    #expect(badLimit.status == 64)
    #expect(badLimit.stdout == "")
  }

  @Test("with only --rules, the session starts with an empty board that setBoard fills")
  func rulesOnly() throws {
    let scratch = try TemporaryDirectory()
    try scratch.write("rules/box.lua", boxRules)
    let boardJSON = try JSONSerialization.jsonObject(with: Data(board.utf8))
    let result = try Serve.run(
      ["--rules", "rules"],
      requests: [
        try Serve.request(1, "describe"), try Serve.request(2, "setBoard", boardJSON),
        try Serve.request(3, "beginDrag", ["items": ["x"]]), try Serve.request(4, "move", ["over": "b"]),
      ], in: scratch.url)
    let responses = try Serve.responses(result)
    #expect(result.status == 0)
    #expect((responses.first?.result?["targets"] as? [Any])?.isEmpty == true)
    #expect(responses.first?.result?["rules"] as? [String] == ["rules/box.lua"])
    #expect(responses.last?.result?["proposal"] as? String == "move")
  }

  @Test("input without a final newline is answered, and CRLF lines are read as lines")
  func lineEndings() throws {
    let input = Data(("\(try Serve.request(1, "version"))\r\n" + (try Serve.request(2, "board"))).utf8)
    let result = try Serve.run([], input: input)
    #expect(try Serve.responses(result).map { $0["id"] as? Int } == [1, 2])
    #expect(result.status == 0)
  }
}
