import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesPlayground

@Suite("rule file watch")
struct RuleFileWatchTests {
  let directory: TemporaryDirectory
  var folder: URL { directory.url }

  init() throws {
    directory = try TemporaryDirectory()
  }

  func write(_ name: String, _ text: String) throws -> String {
    let path = folder.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("a save that keeps the size and the modification time is still a change")
  func sameSizeSameTime() throws {
    let rules = try write("rules.lua", "return { a = 1 }")
    let stamp = try FileManager.default.attributesOfItem(atPath: rules)[.modificationDate]
    var watch = RuleFileWatch(files: [rules])
    func changed() -> Bool { watch.changed(files: [rules]) }
    #expect(!changed())
    _ = try write("rules.lua", "return { b = 2 }")
    try FileManager.default.setAttributes([.modificationDate: stamp as Any], ofItemAtPath: rules)
    #expect(changed())
    #expect(!changed())
  }

  @Test("a module beside the rules that appears, changes or goes away is a change; other files are not")
  func modulesBeside() throws {
    let rules = try write("rules.lua", "return {}")
    var watch = RuleFileWatch(files: [rules])
    func changed() -> Bool { watch.changed(files: [rules]) }
    let module = try write("helpers.lua", "return {}")
    #expect(changed())
    _ = try write("helpers.lua", "return { x = 1 }")
    #expect(changed())
    try FileManager.default.removeItem(atPath: module)
    #expect(changed())
    _ = try write("notes.txt", "not a rule")
    #expect(!changed())
  }

  @Test("a deleted rule file is a change")
  func deleted() throws {
    let rules = try write("rules.lua", "return {}")
    var watch = RuleFileWatch(files: [rules])
    func changed() -> Bool { watch.changed(files: [rules]) }
    try FileManager.default.removeItem(atPath: rules)
    #expect(changed())
  }
}
