import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesTools

/// The playground's page is a web page: its `load` reads rule files only inside the
/// folders the playground started with, and a link cannot lead it out.
@Suite("Rule roots confine load")
struct RuleRootsTests {
  @Test("inside the roots a file loads; outside, or through a link that leads out, it is refused with why")
  func confined() throws {
    let directory = try TemporaryDirectory()
    let inside = try directory.write("rules/box.lua", "return { box = {} }")
    let outside = try directory.write("secret/notes.lua", "return { box = {} }")
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/rules/link.lua", withDestinationPath: outside)
    let client = ProtocolClient(session: try ProtocolSession(), ruleRoots: [directory.path + "/rules"])
    #expect(try client.result("load", #"{"rules": ["\#(inside)"]}"#).objectValue?["files"] != nil)
    for path in [outside, directory.path + "/rules/link.lua", directory.path + "/rules/../secret/notes.lua"] {
      let response = try client.send("load", #"{"rules": ["\#(path)"]}"#)
      let message = response.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? ""
      #expect(message.contains(": outside the folders rules load from here"), "\(path): \(message)")
      #expect(response.objectValue?["error"]?.objectValue?["code"] == .integer(-32001))
    }
    // Without roots (droprules serve), the client is the app, and loads what it names.
    let serve = ProtocolClient(session: try ProtocolSession())
    #expect(try serve.result("load", #"{"rules": ["\#(outside)"]}"#).objectValue?["files"] != nil)
  }
}
