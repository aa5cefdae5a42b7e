import DropRules
import DropRulesHostTestSupport
import DropRulesTestSupport
import Testing

@testable import DropRulesTools

/// The protocol's `wait` passes time that `info.hoverTime` reads.
@Suite("The protocol's wait")
struct ProtocolWaitTests {
  let directory: TemporaryDirectory

  init() throws { directory = try TemporaryDirectory() }

  @Test("the protocol's wait answers as move does; a wait out of range is invalid params at $.params.ms")
  func protocolWait() throws {
    // Boxes a and b, a holding x.
    let client = try ProtocolClient(rules: SharedRules.dwell, directory: directory)
    _ = try client.result("beginDrag", #"{"items": ["x"]}"#)
    #expect(try client.result("move", #"{"over": "b"}"#).objectValue?["proposal"] == .string("forbidden"))
    let waited = try client.result("wait", #"{"ms": 600}"#).objectValue
    #expect(waited?["proposal"] == .string("move"))
    #expect(waited?["action"] == .object(["kind": .string("wait"), "ms": .integer(600)]))
    let refused = try client.error("wait", #"{"ms": -5}"#).objectValue
    #expect(refused?["code"] == .integer(-32602))
    #expect(refused?["data"]?.objectValue?["path"] == .string("$.params.ms"))
  }
}
