import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesModel
@testable import DropRulesTools

/// Names a client or a file sends are echoed in errors cut to 60 Unicode scalars
/// (TextCap.name): a `move` over a 10 MB unknown target id was answered with 20 MB.
@Suite("host protocol: names echoed in errors are cut")
struct EchoedNameTests {
  static let rules = "return { box = { performDrop = function() return true end } }"
  /// CI-sized: 1 MB is enough to tell a cut from a copy (the reported attack sent 10 MB).
  static let long = String(repeating: "t", count: 1_000_000)
  static let combining = "a" + String(repeating: "\u{301}", count: 500_000)

  func expectShort(_ response: JSONValue, _ comment: Comment? = nil) {
    let bytes = response.serialized().utf8.count
    #expect(bytes < 2_000, comment ?? "\(bytes) bytes")
  }

  @Test("an unknown target id of a megabyte in move, or of combining marks, is answered in a short error")
  func unknownTarget() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: Self.rules, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    for id in [Self.long, Self.combining] {
      let error = try client.error("move", #"{"over": "\#(id)"}"#)
      expectShort(error)
      let message = try #require(error.objectValue?["message"]?.stringValue)
      #expect(message.contains("…"))
      let target = try #require(error.objectValue?["data"]?.objectValue?["target"]?.stringValue)
      #expect(target.unicodeScalars.count <= TextCap.name.limit)
    }
  }

  @Test("an unknown item id of a megabyte in beginDrag is answered in a short error")
  func unknownItem() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: Self.rules, directory: directory)
    let error = try client.error("beginDrag", #"{"items": ["\#(Self.long)"]}"#)
    expectShort(error)
  }

  @Test("a method name, a member or a params key of a megabyte is answered in a short error")
  func unknownNames() throws {
    let directory = try TemporaryDirectory()
    let client = try ProtocolClient(rules: Self.rules, directory: directory)
    let method = try client.send(Self.long)
    expectShort(method)
    #expect(method.serialized().contains("(1000000 bytes)"))
    expectShort(try client.send(Self.combining))
    let member = try #require(try client.raw(#"{"jsonrpc": "2.0", "id": 1, "method": "trace", "\#(Self.long)": 1}"#))
    expectShort(member)
    expectShort(try client.send("beginDrag", #"{"items": ["x"], "\#(Self.long)": 1}"#))
    expectShort(
      try client.send(
        "setBoard",
        #"{"targets": [{"id": "\#(Self.long)", "frame": [0, 0, 1, 1], "type": "box"}, {"id": "\#(Self.long)", "frame": [0, 0, 1, 1], "type": "box"}]}"#
      ))
  }

  @Test("a board error names its ids cut")
  func boardErrors() {
    let text = BoardError.notInTarget(Self.long, Self.combining).description
    #expect(text.utf8.count < 400)
    #expect(DragError.unknownTarget(Self.long).description.utf8.count < 120)
  }
}

/// `droprules run` and `test` decode scenarios with ScenarioDecoder: its errors cut the
/// keys and ids they echo, and the path that ends with the key.
@Suite("scenario errors: names echoed are cut")
struct ScenarioEchoedNameTests {
  @Test("an unknown key, a duplicate target id or an unknown dragged item of a megabyte give a short error")
  func scenarioNames() throws {
    let directory = try TemporaryDirectory()
    let decoder = ScenarioDecoder(file: "t.scenario.json", baseDirectory: directory.path)
    let long = EchoedNameTests.long
    let target: JSONValue = .object([
      "id": .string(long), "type": .string("box"),
      "frame": .array([.integer(0), .integer(0), .integer(1), .integer(1)]),
    ])
    let attempts: [JSONValue] = [
      .object([long: .integer(1)]),
      .object(["board": .object(["targets": .array([target, target])])]),
      .object([
        "board": .object(["targets": .array([target])]),
        "drag": .object(["items": .array([.string(long + "x")]), "steps": .array([])]),
      ]),
    ]
    for attempt in attempts {
      do {
        _ = try decoder.decode(attempt)
        Issue.record("decoded")
      } catch {
        #expect(error.description.utf8.count < 1_000, "\(error.description.prefix(200))")
      }
    }
  }
}
