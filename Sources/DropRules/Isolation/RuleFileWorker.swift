import DropRulesLua
import DropRulesModel
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The worker process side of a rule file run apart from its host
/// (``DropRulesLua/LuaLimits/workerCommand``): one rule file in a Lua state of its own,
/// reading the host's board from a copy the host keeps current and asking the host for
/// every change.
///
/// `droprules worker` runs this; an app that ships its own executable instead calls
/// ``serve()`` when the host starts it as its worker command.
public enum RuleFileWorker {
  /// Serves the host on standard input until the host closes it, then returns.
  public static func serve() {
    signal(SIGPIPE, SIG_IGN)
    closeInheritedDescriptors()
    // The host bounds what it takes; what the worker takes comes from its host.
    var session = Session(channel: WorkerChannel(descriptor: 0, maximumMessageBytes: Int.max))
    while let command = session.next() {
      do throws(WorkerFault) {
        try session.handle(command)
      } catch {
        return
      }
    }
  }

  /// Closes every descriptor but standard input, output and error: a host's files and
  /// sockets (another worker's connection, a playground's listener) are not the rule's.
  private static func closeInheritedDescriptors() {
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap(Int32.init) where descriptor > 2 { close(descriptor) }
  }

  private struct Session {
    let channel: WorkerChannel
    var state: RuleFileState?
    var view: ReplicaView?

    init(channel: WorkerChannel) { self.channel = channel }

    func next() -> HostMessage? { try? channel.receive(HostMessage.self, by: nil) }

    mutating func handle(_ command: HostMessage) throws(WorkerFault) {
      switch command {
      case .load(let load): try channel.send(WorkerReport.loaded(self.load(load)), by: nil)
      case .call(let call):
        guard let state, let view else { throw .malformed("a call before the file loaded") }
        if let snapshot = call.view { view.update(snapshot) }
        if let owners = call.owners { state.typeOwners = TargetTypeOwners(owners) }
        let result = state.call(
          call.handler, of: call.rule, target: call.target, position: call.position, context: call.context, in: view)
        try channel.send(
          WorkerReport.returned(result, printed: state.takePrintedLines(), memory: state.runtime.ownMemoryInUse),
          by: nil)
      case .dragDidEnd:
        state?.dragDidEnd()
        state?.runtime.sharedAccountBytes = 0
        try channel.send(WorkerReport.dragEnded(memory: state?.runtime.ownMemoryInUse ?? 0), by: nil)
      case .reply: throw .malformed("an answer to no request")
      }
    }

    private mutating func load(_ load: WorkerLoad) -> WorkerLoaded {
      let state: RuleFileState
      do {
        state = try RuleFileState(limits: load.limits)
      } catch {
        return WorkerLoaded(
          rules: [], problems: [RuleProblem(error, file: load.path)], accepted: [], printed: [], memory: 0)
      }
      state.typeOwners = TargetTypeOwners(load.owners)
      state.loadOrder = load.loadOrder
      state.runtime.sharedAccountBytes = load.heldBytes
      state.sourceFiles.confinement = load.confinement
      let channel = self.channel
      let view = ReplicaView(load.view) { request in
        // Inside a call: the host answers before it sends anything else.
        guard (try? channel.send(WorkerReport.request(request), by: nil)) != nil,
          case .reply(let reply) = try? channel.receive(HostMessage.self, by: nil)
        else { exit(1) }
        return reply
      }
      let (rules, problems, accepted) = state.load(path: load.path, in: view)
      var summaries: [RuleSummary] = []
      var kept: [RuleProblem] = problems
      for rule in rules {
        do {
          try state.add(rule)
          let id = state.ruleSet.all.count - 1
          summaries.append(
            RuleSummary(
              targetType: rule.targetType, accepts: rule.accepts, handlers: rule.handlers, effects: rule.effects,
              description: state.describe(id)))
        } catch {
          kept.append(error)
        }
      }
      self.state = state
      self.view = view
      return WorkerLoaded(
        rules: summaries, problems: kept, accepted: accepted.map { AcceptedTypes(targetType: $0.0, types: $0.1) },
        printed: state.takePrintedLines(), memory: state.runtime.ownMemoryInUse)
    }
  }
}
