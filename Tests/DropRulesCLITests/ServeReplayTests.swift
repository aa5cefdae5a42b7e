import Foundation
import Testing

/// Every bundled scenario, driven through `droprules serve` as a client would drive it,
/// ends as `droprules run` says it does: the same proposals, outcome, board, data and
/// trace.
@Suite("droprules serve replays the bundled scenarios")
struct ServeReplayTests {
  static let scenarios: [String] = {
    let root = DropRulesBinary.packageRoot.appendingPathComponent("rules")
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return folders.flatMap { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
        .filter { $0.hasSuffix(".scenario.json") }.map { "rules/\(folder)/\($0)" }
    }.sorted()
  }()

  @Test("there are bundled scenarios to replay")
  func found() { #expect(Self.scenarios.count >= 11) }

  @Test("the protocol gives the outcome, board and trace that run gives", arguments: scenarios)
  func replay(path: String) throws {
    let run = try DropRulesBinary.run(["run", "--format", "json", path])
    let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let expected = try #require((document?["scenarios"] as? [[String: Any]])?.first)

    let file = try Data(contentsOf: DropRulesBinary.packageRoot.appendingPathComponent(path))
    let scenario = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
    var requests = [try Serve.request(0, "beginDrag", scenario["drag"])]
    let steps = scenario["steps"] as? [Any] ?? []
    for (offset, step) in steps.enumerated() {
      let id = offset + 1
      switch step {
      case let word as String: requests.append(try Serve.request(id, word))
      case let fields as [String: Any] where fields["at"] != nil || fields["over"] != nil:
        requests.append(try Serve.request(id, "move", fields))
      case let fields as [String: Any] where fields["modifiers"] != nil:
        requests.append(try Serve.request(id, "modifiers", fields))
      case let fields as [String: Any] where fields["wait"] != nil:
        requests.append(try Serve.request(id, "wait", ["ms": fields["wait"] as Any]))
      case let fields as [String: Any] where fields["frames"] != nil:
        requests.append(try Serve.request(id, "setFrames", fields))
      case let fields as [String: Any]: requests.append(try Serve.request(id, "outside", fields["outside"]))
      default: Issue.record("step \(offset) of \(path) is neither a word nor an object")
      }
    }
    // A scenario without a final drop or cancel is cancelled after its last step.
    if !(steps.last is String) { requests.append(try Serve.request(100, "cancel")) }
    requests += [try Serve.request(101, "board"), try Serve.request(102, "trace")]

    let served = try Serve.run([path], requests: requests)
    #expect(served.status == 0, "\(served.stderr)")
    let responses = try Serve.responses(served)
    let byID = Dictionary(responses.map { ($0["id"] as? Int ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
    let begin = try #require(byID[0]?.result)
    let refused = begin["outcome"] as? String == "refused"
    // After a refused start no drag is in progress: every step is a drag error.
    let stepAnswers = (1...max(1, steps.count)).compactMap { byID[$0] }
    if refused {
      #expect(stepAnswers.allSatisfy { $0.errorCode == -32000 })
    } else {
      #expect(stepAnswers.allSatisfy { $0.result != nil })
    }
    let proposals = stepAnswers.compactMap { $0.result?["proposal"] as? String }
    let outcome = refused ? "refused" : ((byID[100] ?? stepAnswers.last)?.result?["outcome"] as? String)
    #expect(proposals == expected["proposals"] as? [String])
    #expect(outcome == expected["outcome"] as? String)
    let board = try #require(byID[101]?.result)
    #expect(NSDictionary(dictionary: board["targets"] as? [String: Any] ?? [:]).isEqual(expected["board"]))
    #expect(NSDictionary(dictionary: board["data"] as? [String: Any] ?? [:]).isEqual(expected["data"]))
    let trace = try #require(byID[102]?["result"] as? [Any])
    #expect(NSArray(array: trace).isEqual(expected["steps"]))
    // Each answer is its step as the trace shows it; the trace leaves out a begin step
    // in which nothing happened.
    let beginInTrace = (trace.first as? [String: Any])?["number"] as? Int == 0
    let answers =
      (beginInTrace ? [begin] : []) + stepAnswers.compactMap(\.result) + [byID[100]?.result].compactMap { $0 }
    #expect(NSArray(array: answers).isEqual(trace))
  }
}
