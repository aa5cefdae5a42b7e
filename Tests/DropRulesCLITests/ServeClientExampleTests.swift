import Foundation
import Testing

@Suite("examples/client.py")
struct ServeClientExampleTests {
  @Test("docs/host-protocol.md's Python client drives the calendar scenario through droprules serve")
  func pythonClient() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "examples/client.py", DropRulesBinary.url.path]
    process.currentDirectoryURL = DropRulesBinary.packageRoot
    let result = try CommandResult(running: process)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        move {"at": [50, 50]} -> move over day-12
        move {"over": "day-13"} -> move over day-13
        option -> copy
        drop -> performed
        board {'day-12': ['standup'], 'day-13': ['standup-copy1']}
        error: no drag in progress; begin one first

        """)
  }
}
