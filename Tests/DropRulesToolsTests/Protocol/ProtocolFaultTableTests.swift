import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesModel
@testable import DropRulesTools

/// Every method's faults against the error table of docs/host-protocol.md: one code per
/// kind of fault, whichever method meets it. A client may switch on `code` and
/// `data.kind` alone.
@Suite("host protocol: one error code per kind of fault")
struct ProtocolFaultTableTests {
  /// A fault: the method and params that meet it, whether a drag is in progress, and
  /// the code and `data.kind` (nil where the code has none) the table gives it.
  struct Fault: Sendable, CustomTestStringConvertible {
    var method: String
    var params: String?
    var inDrag: Bool
    var code: Int64
    var kind: String?
    var testDescription: String { "\(method) \(params ?? "") \(inDrag ? "in a drag" : "between drags")" }
  }

  static let rules =
    "return { box = { dropUpdated = function() return 'move' end, performDrop = function() return true end } }"

  static let faults: [Fault] = [
    // A call at the wrong time.
    Fault(method: "move", params: #"{"over": "b"}"#, inDrag: false, code: -32000, kind: "noDrag"),
    Fault(method: "modifiers", params: #"{"modifiers": []}"#, inDrag: false, code: -32000, kind: "noDrag"),
    Fault(method: "outside", params: #"{}"#, inDrag: false, code: -32000, kind: "noDrag"),
    Fault(method: "wait", params: #"{"ms": 1}"#, inDrag: false, code: -32000, kind: "noDrag"),
    Fault(method: "drop", params: nil, inDrag: false, code: -32000, kind: "noDrag"),
    Fault(method: "cancel", params: nil, inDrag: false, code: -32000, kind: "noDrag"),
    Fault(method: "beginDrag", params: #"{"items": ["x"]}"#, inDrag: true, code: -32000, kind: "dragInProgress"),
    Fault(method: "setBoard", params: #"{"targets": []}"#, inDrag: true, code: -32000, kind: "dragInProgress"),
    Fault(method: "load", params: #"{"rules": []}"#, inDrag: true, code: -32000, kind: "dragInProgress"),
    // A target that is not on the board, wherever it is named.
    Fault(method: "move", params: #"{"over": "zz"}"#, inDrag: true, code: -32000, kind: "unknownTarget"),
    Fault(
      method: "setFrames", params: #"{"frames": {"zz": [0, 0, 1, 1]}}"#, inDrag: true, code: -32000,
      kind: "unknownTarget"),
    Fault(
      method: "setFrames", params: #"{"frames": {"zz": [0, 0, 1, 1]}}"#, inDrag: false, code: -32000,
      kind: "unknownTarget"),
    Fault(method: "board", params: #"{"targets": ["zz"]}"#, inDrag: false, code: -32000, kind: "unknownTarget"),
    Fault(method: "describe", params: #"{"targets": ["zz"]}"#, inDrag: true, code: -32000, kind: "unknownTarget"),
    // An item that is not on the board.
    Fault(method: "beginDrag", params: #"{"items": ["zz"]}"#, inDrag: false, code: -32000, kind: "itemNotOnBoard"),
    // Rule files that do not load, whatever the reason.
    Fault(method: "load", params: #"{"rules": ["no/such.lua"]}"#, inDrag: false, code: -32001, kind: nil),
    Fault(method: "load", params: #"{"rules": ["DIR/broken.lua"]}"#, inDrag: false, code: -32001, kind: nil),
    // Params of the wrong shape.
    Fault(method: "move", params: #"{"over": 5}"#, inDrag: true, code: -32602, kind: nil),
    Fault(method: "move", params: #"{"over": "b", "index": 1.5}"#, inDrag: true, code: -32602, kind: nil),
    Fault(method: "setFrames", params: #"{"frames": 5}"#, inDrag: false, code: -32602, kind: nil),
    Fault(method: "load", params: #"{"rules": [5]}"#, inDrag: false, code: -32602, kind: nil),
    Fault(method: "board", params: #"{"targets": "a"}"#, inDrag: false, code: -32602, kind: nil),
    Fault(method: "beginDrag", params: #"{"items": []}"#, inDrag: false, code: -32602, kind: nil),
  ]

  @Test("each fault answers the code and kind of the table", arguments: faults)
  func fault(_ fault: Fault) throws {
    let directory = try TemporaryDirectory()
    try directory.write("broken.lua", "return { box = {")
    let client = try ProtocolClient(rules: Self.rules, directory: directory)
    if fault.inDrag { _ = try client.result("beginDrag", #"{"items": ["x"]}"#) }
    // DIR/ names the test's own folder.
    let params = fault.params?.replacingOccurrences(of: "DIR/", with: directory.path + "/")
    let error = try client.error(fault.method, params).objectValue
    #expect(error?["code"] == .integer(fault.code), "\(error ?? [:])")
    let data = error?["data"]?.objectValue
    #expect(data?["kind"]?.stringValue == fault.kind, "\(error ?? [:])")
    switch fault.code {
    case -32602: #expect(data?["path"]?.stringValue?.hasPrefix("$.params") == true)
    case -32001: #expect(data?["problems"]?.arrayValue?.isEmpty == false)
    default: break
    }
  }
}
