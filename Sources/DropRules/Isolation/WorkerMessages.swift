import DropRulesLua
import DropRulesModel

/// What a rule host sends a rule file's worker process.
enum HostMessage: Codable {
  /// Load the file (the first message, and the first after a restart).
  case load(WorkerLoad)
  case call(WorkerCall)
  case dragDidEnd
  /// The host's answer to the worker's last ``WorkerReport/request(_:)``.
  case reply(ReplicaReply)
}

/// Load a rule file in a fresh Lua state.
struct WorkerLoad: Codable {
  var path: String
  var limits: LuaLimits
  /// Where the file and the modules it requires may lie (real paths); nil for anywhere.
  var confinement: [String]?
  /// The file's place among the host's files, as ``owners`` names them.
  var loadOrder: Int
  var owners: TargetTypeOwners.Table
  var view: ViewSnapshot
  /// Bytes the host holds for the file in the current drag, counted against the new
  /// state's cap as its own: what an earlier worker's calls printed.
  var heldBytes: Int
}

/// Run a handler, as ``RuleCalling/call(_:of:target:position:context:in:)`` does.
struct WorkerCall: Codable {
  var handler: Handler
  /// The rule's place among the rules the file declared.
  var rule: RuleID
  var target: TargetID
  var position: Int
  var context: HandlerContext
  /// What the host's engine shows now, when it changed since the worker last saw it.
  var view: ViewSnapshot?
  /// Who serves what, when it changed since (another file loaded).
  var owners: TargetTypeOwners.Table?
}

/// What a worker sends its host.
enum WorkerReport: Codable {
  case loaded(WorkerLoaded)
  /// A change the rule asks of the board: the host answers with ``HostMessage/reply(_:)``.
  case request(ReplicaRequest)
  /// The handler's result, what it printed, and the bytes the file's state holds.
  case returned(HandlerResult, printed: [String], memory: Int)
  case dragEnded(memory: Int)
}

/// What loading a rule file gave.
struct WorkerLoaded: Codable {
  var rules: [RuleSummary]
  var problems: [RuleProblem]
  var accepted: [AcceptedTypes]
  var printed: [String]
  var memory: Int
}

/// A rule a worker's file declared, without its functions, which stay in the worker.
struct RuleSummary: Codable, Equatable {
  var targetType: String
  var accepts: [TypeIdentifier]?
  var handlers: Set<Handler>
  var effects: Set<RuleEffect>
  var description: RuleDescription

  static func == (lhs: RuleSummary, rhs: RuleSummary) -> Bool {
    lhs.targetType == rhs.targetType && lhs.accepts == rhs.accepts && lhs.handlers == rhs.handlers
      && lhs.effects == rhs.effects
  }
}

/// A rule's accepted types, for the warnings given once every file loaded.
struct AcceptedTypes: Codable {
  var targetType: String
  var types: [TypeIdentifier]
}
