import Foundation
import Testing

@Suite("droprules play")
struct PlayCommandTests {
  @Test("a scenario that does not load exits 2 before serving")
  func missingScenario() throws {
    let result = try DropRulesBinary.run(["play", "no-such.scenario.json", "--port", "0"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("no-such.scenario.json"))
    #expect(result.stdout.isEmpty)
  }

  @Test("a port outside 0...65535 is refused")
  func badPort() throws {
    let result = try DropRulesBinary.run(["play", "rules/calendar/move-to-empty-day.scenario.json", "--port", "70000"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--port"))
  }

  @Test("it prints its address, and a second server on that port says the port is taken and exits 2")
  func portTaken() throws {
    let first = Process()
    first.executableURL = DropRulesBinary.url
    first.arguments = ["play", "rules/calendar/move-to-empty-day.scenario.json", "--port", "0"]
    first.currentDirectoryURL = DropRulesBinary.packageRoot
    let output = Pipe()
    first.standardOutput = output
    first.standardError = FileHandle.nullDevice
    try first.run()
    defer {
      first.terminate()
      first.waitUntilExit()
    }
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line += chunk
    }
    let text = String(decoding: line, as: UTF8.self)
    let prefix = "droprules play: serving at http://127.0.0.1:"
    #expect(text.hasPrefix(prefix))
    let port = try #require(text.dropFirst(prefix.count).split(separator: "/").first)
    let second = try DropRulesBinary.run([
      "play", "rules/calendar/move-to-empty-day.scenario.json", "--port", String(port),
    ])
    #expect(second.status == 2)
    #expect(second.stderr.contains("cannot serve on 127.0.0.1:\(port)"))
  }
}
