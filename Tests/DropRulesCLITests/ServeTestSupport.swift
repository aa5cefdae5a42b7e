import DropRulesTestSupport
import Foundation

/// Runs `droprules serve` as a client would: requests in on stdin, one response a line
/// out on stdout.
enum Serve {
  /// Runs the server with `requests` as its whole input and returns what it printed.
  static func run(_ arguments: [String], requests: [String], in directory: URL = DropRulesBinary.packageRoot)
    throws -> CommandResult
  {
    try run(arguments, input: Data(requests.map { $0 + "\n" }.joined().utf8), in: directory)
  }

  /// Runs the server with `input` as its stdin (through a file, so nothing waits on a pipe).
  static func run(_ arguments: [String], input: Data, in directory: URL = DropRulesBinary.packageRoot)
    throws -> CommandResult
  {
    let scratch = try TemporaryDirectory()
    let inputFile = scratch.url.appendingPathComponent("input")
    try input.write(to: inputFile)
    let process = Process()
    process.executableURL = DropRulesBinary.url
    process.arguments = ["serve"] + arguments
    process.currentDirectoryURL = directory
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    return try CommandResult(running: process)
  }

  /// A JSON-RPC request line.
  static func request(_ id: Int?, _ method: String, _ params: Any? = nil) throws -> String {
    var request: [String: Any] = ["jsonrpc": "2.0", "method": method]
    if let id { request["id"] = id }
    if let params { request["params"] = params }
    return String(decoding: try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]), as: UTF8.self)
  }

  /// The response lines of a run, each parsed.
  static func responses(_ result: CommandResult) throws -> [[String: Any]] {
    try result.stdout.split(separator: "\n").map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw ServeTestError("not a response object: \(line)")
      }
      return object
    }
  }
}

struct ServeTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension Dictionary where Key == String, Value == Any {
  /// `result` of a response, as an object.
  var result: [String: Any]? { self["result"] as? [String: Any] }
  /// `error.code` of a response.
  var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
  /// `error.message` of a response.
  var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
  /// `error.data` of a response.
  var errorData: [String: Any]? { (self["error"] as? [String: Any])?["data"] as? [String: Any] }
}

/// The peak memory of a running process, from `/proc` (Linux), in bytes.
func peakResidentBytes(of pid: Int32) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    return kilobytes.map { $0 * 1024 }
  }
  return nil
}
