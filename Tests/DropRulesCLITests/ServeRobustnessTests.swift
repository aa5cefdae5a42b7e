import Foundation
import Testing

/// A server process with pipes on both ends, for clients that misbehave.
private final class ServerProcess: @unchecked Sendable {
  let process = Process()
  let input = Pipe()
  let output = Pipe()
  /// Bytes the writer thread got into the server's stdin so far.
  private let lock = NSLock()
  private var written = 0

  init(_ arguments: [String]) throws {
    process.executableURL = DropRulesBinary.url
    process.arguments = ["serve"] + arguments
    process.currentDirectoryURL = DropRulesBinary.packageRoot
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  var bytesWritten: Int { lock.withLock { written } }

  /// Writes `chunks` to the server's stdin on a thread of its own, then closes it when
  /// `close` is set; a server that stops reading blocks that thread, not the test.
  func write(_ chunks: [Data], close: Bool) {
    let handle = input.fileHandleForWriting
    Thread.detachNewThread { [self] in
      for chunk in chunks {
        guard (try? handle.write(contentsOf: chunk)) != nil else { return }
        lock.withLock { written += chunk.count }
      }
      if close { try? handle.close() }
    }
  }

  /// Reads response lines until `count` have come.
  func readLines(_ count: Int) -> [String] {
    var buffer = Data()
    var lines = 0
    while lines < count {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      lines += chunk.count(where: { $0 == UInt8(ascii: "\n") })
      buffer.append(chunk)
    }
    return String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}

@Suite("droprules serve under hostile clients", .serialized)
struct ServeRobustnessTests {
  @Test("a 100 MB line is refused without being held, and the next request is answered")
  func hugeLine() throws {
    let server = try ServerProcess([])
    let chunk = Data(repeating: UInt8(ascii: "["), count: 1 << 20)
    server.write(
      Array(repeating: chunk, count: 100) + [Data("\n\(try Serve.request(1, "version"))\n".utf8)], close: false)
    let lines = server.readLines(2)
    #expect(lines.count == 2)
    let refusal = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
    #expect(refusal?.errorCode == -32600)
    #expect(refusal?.errorData?["bytes"] as? Int == 100 << 20)
    #expect(lines.last?.contains(#""protocol":1"#) == true)
    // At most one line of 16 MiB is ever held; the 100 MB never is.
    let peak = try #require(peakResidentBytes(of: server.process.processIdentifier))
    #expect(peak < 80 << 20, "peak resident memory \(peak >> 20) MiB")
    try server.input.fileHandleForWriting.close()
    server.process.waitUntilExit()
    #expect(server.process.terminationStatus == 0)
  }

  @Test("a client that never reads its answers blocks the server, which stops reading requests")
  func clientThatDoesNotRead() throws {
    let server = try ServerProcess(["rules/calendar/move-to-empty-day.scenario.json"])
    // A small answer, so that the pipe holds many: the server still stops reading.
    let request = Data((try Serve.request(1, "trace") + "\n").utf8)
    let count = 20_000
    let chunk = Array(repeating: request, count: 100).reduce(Data(), +)
    server.write(Array(repeating: chunk, count: count / 100), close: true)
    // Answers fill the pipe; then the server waits on its write and reads no more.
    Thread.sleep(forTimeInterval: 2)
    let total = request.count * count
    let accepted = server.bytesWritten
    #expect(accepted < total / 2, "the server took \(accepted) of \(total) bytes while nobody read its answers")
    let peak = try #require(peakResidentBytes(of: server.process.processIdentifier))
    #expect(peak < 80 << 20, "peak resident memory \(peak >> 20) MiB")
    // Reading lets it go on, to the last answer.
    let lines = server.readLines(count + 1)
    server.process.waitUntilExit()
    #expect(lines.count == count)
    #expect(server.process.terminationStatus == 0)
  }

  @Test("a client that closes the server's stdout ends it, with an error on stderr")
  func closedOutput() throws {
    let process = Process()
    process.executableURL = DropRulesBinary.url
    process.arguments = ["serve"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try output.fileHandleForReading.close()
    try input.fileHandleForWriting.write(contentsOf: Data((try Serve.request(1, "version") + "\n").utf8))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stderr == "error: stdout was closed; ending\n")
  }

  @Test("30 board answers over 4 MB of data stop at --max-answer-bytes, and the server holds about that")
  func boundedAnswerLine() throws {
    let server = try ServerProcess(["--max-answer-bytes", String(8 << 20)])
    let blob = String(repeating: "d", count: 4_000_000)
    let board: [String: Any] = [
      "targets": [["id": "a", "type": "box", "frame": [0, 0, 10, 10], "data": ["blob": blob]]]
    ]
    let batch =
      "[" + (1...30).map { #"{"jsonrpc": "2.0", "id": \#($0), "method": "board"}"# }.joined(separator: ",") + "]"
    server.write([Data((try Serve.request(1, "setBoard", board) + "\n" + batch + "\n").utf8)], close: false)
    let lines = server.readLines(2)
    #expect(lines.count == 2)
    let answers = try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [[String: Any]]
    #expect(answers?.count == 30)
    #expect(answers?.prefix(2).allSatisfy { $0["result"] != nil } == true)
    #expect(answers?.dropFirst(2).allSatisfy { $0.errorCode == -32002 } == true)
    // Before the bound, the line held 120 MB and the server twice that.
    let peak = try #require(peakResidentBytes(of: server.process.processIdentifier))
    #expect(peak < 100 << 20, "peak resident memory \(peak >> 20) MiB")
    try server.input.fileHandleForWriting.close()
    server.process.waitUntilExit()
    #expect(server.process.terminationStatus == 0)
  }

  @Test("--max-answer-bytes outside 1024 to 4 GiB is a usage error")
  func answerBoundOption() throws {
    let result = try Serve.run(["--max-answer-bytes", "10"], requests: [])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--max-answer-bytes must be between 1024 and 4294967296 (4 GiB), got 10"))
  }
}
