import Foundation

/// Lua rule files behind ``RuleCalling``: loads them into one sandboxed runtime and runs
/// their handlers with host objects for `info`, items, targets and the board.
///
/// Objects are made once per id and read the engine's staged board; a pointer step
/// updates the drag's one `info` in place and calls the handler directly.
final class LuaRules: RuleCalling {
  let runtime: LuaRuntime
  /// Reads the board and stages changes; set right after the engine is made.
  weak var engine: DragEngine?
  private(set) var ruleSet = RuleSet()
  /// True while rule files run their top level: the only time types may be declared.
  var isLoading = false
  private var api: RuleAPI?
  /// Target objects by board position.
  private var targetObjects: [LuaReference?] = []
  private var info: DragInfo?

  /// The current drag's `info` and the tables the host writes in place.
  private struct DragInfo {
    let object: LuaReference
    let backing: LuaReference
    let location: LuaReference
    let globalLocation: LuaReference
    var index: Int?
    var operation: DropOperation?
    var outcome: DropOutcome?
  }

  init(limits: LuaLimits) throws(LuaError) {
    runtime = try LuaRuntime(limits: limits)
    api = try RuleAPI(runtime: runtime, hostFunctions: makeHostFunctions(), trusted: runtime.trustedLibrary)
  }

  /// The `droprules` global rule files see (each environment copies it).
  var droprulesGlobal: LuaValue { api?.droprules ?? .nil }

  func add(_ rule: Rule) throws(RuleProblem) { try ruleSet.add(rule) }

  // MARK: RuleCalling

  func rule(forTargetType type: String) -> RuleID? { ruleSet.id(for: type) }

  func acceptedTypes(of rule: RuleID) -> [TypeIdentifier]? { ruleSet.all[rule].accepts }

  func definition(of handler: Handler, in rule: RuleID) -> (file: String, line: Int)? {
    ruleSet.all[rule].functions[handler.ordinal].flatMap(runtime.definition(of:))
  }

  func dragDidBegin(
    items: [ItemID], modifiers: Set<Modifier>, allowed: Set<DropOperation>, source: TargetID?
  ) -> Diagnostic? {
    guard let api else { return nil }
    do {
      let results = try runtime.call(
        api.beginDrag,
        [
          .table(LuaTable(sequence: items.map(LuaValue.string))), Self.names(modifiers.sorted()),
          Self.names(allowed.sorted { $0.rawValue < $1.rawValue }), source.map(LuaValue.string) ?? .nil,
        ], keepingTables: true)
      guard results.count == 4, case .reference(let object) = results[0], case .reference(let backing) = results[1],
        case .reference(let location) = results[2], case .reference(let globalLocation) = results[3]
      else { return Diagnostic(message: "droprules could not make the drag's info object") }
      info = DragInfo(object: object, backing: backing, location: location, globalLocation: globalLocation)
      return nil
    } catch {
      return Self.diagnostic(error, handler: nil, target: nil)
    }
  }

  func modifiersDidChange(_ modifiers: Set<Modifier>) -> Diagnostic? {
    guard let api, let info else { return nil }
    do {
      try runtime.call(api.setModifiers, [.reference(info.backing), Self.names(modifiers.sorted())])
      return nil
    } catch {
      return Self.diagnostic(error, handler: nil, target: nil)
    }
  }

  func call(
    _ handler: Handler, of rule: RuleID, target: TargetID, position: Int, context: HandlerContext
  ) -> HandlerResult {
    guard let function = ruleSet.all[rule].functions[handler.ordinal] else { return .notImplemented }
    guard let info = updatedInfo(context) else {
      return .failed(Diagnostic(message: "\(handler.rawValue) was called outside a drag", handler: handler))
    }
    do {
      let object = try targetObject(at: position, id: target)
      return result(try runtime.callHandler(function, info.object, object), handler: handler, target: target)
    } catch {
      return .failed(Self.diagnostic(error, handler: handler, target: target))
    }
  }

  func targetsDidChange(_ targets: [TargetID]) {
    guard let api else { return }
    _ = try? runtime.call(api.forget, [.table(LuaTable(sequence: targets.map(LuaValue.string)))])
  }

  func boardWasReplaced() {
    targetObjects = []
    guard let api else { return }
    _ = try? runtime.call(api.forgetAll)
  }

  func dragDidEnd() {
    if let api, let info { _ = try? runtime.call(api.endDrag, [.reference(info.backing)]) }
    info = nil
  }

  func takePrintedLines() -> [String] { runtime.takePrintedLines() }

  // MARK: Calls

  /// Writes this call's pointer, index, operation and outcome into the drag's `info`.
  private func updatedInfo(_ context: HandlerContext) -> DragInfo? {
    guard var info else { return nil }
    runtime.setPoint(info.location, x: context.location.x, y: context.location.y)
    runtime.setPoint(info.globalLocation, x: context.pointer.x, y: context.pointer.y)
    if info.index != context.index {
      runtime.setInteger(info.backing, "index", context.index)
      info.index = context.index
    }
    if info.operation != context.operation {
      runtime.setString(info.backing, "operation", context.operation?.rawValue)
      info.operation = context.operation
    }
    if info.outcome != context.outcome {
      runtime.setString(info.backing, "outcome", context.outcome?.rawValue)
      info.outcome = context.outcome
    }
    self.info = info
    return info
  }

  private func targetObject(at position: Int, id: TargetID) throws(LuaError) -> LuaReference {
    if position < targetObjects.count, let object = targetObjects[position] { return object }
    guard let api, case .reference(let object) = try runtime.call(api.target, [.string(id)], keepingTables: true).first
    else {
      throw LuaError(kind: .runtime, message: "droprules could not make the object of target '\(id)'")
    }
    if position >= targetObjects.count {
      targetObjects += Array(repeating: nil, count: position - targetObjects.count + 1)
    }
    targetObjects[position] = object
    return object
  }

  private func result(_ value: LuaHandlerReturn, handler: Handler, target: TargetID) -> HandlerResult {
    switch value {
    case .nothing: return .returned(.nothing)
    case .boolean(let flag): return .returned(.boolean(flag))
    case .other(let description): return .returned(.other(description))
    case .proposal(let code, let index):
      let proposal = DropProposal.allCases[code]
      switch index {
      case .none: return .returned(.proposal(proposal, index: nil))
      case .integer(let whole):
        guard let index = Int(exactly: whole) else { break }
        return .returned(.proposal(proposal, index: index))
      case .float(let number):
        guard number.isFinite, number.rounded() == number, abs(number) < 1e15 else { break }
        return .returned(.proposal(proposal, index: Int(number)))
      case .notANumber: break
      }
      var diagnostic = Diagnostic(
        message: "\(handler.rawValue) returned an index that is not a whole, finite number; "
          + "give { operation = \"\(proposal.rawValue)\", index = n } with n an integer",
        handler: handler, target: target)
      if let rule = ruleSet.id(for: engine?.currentBoard.target(target)?.type ?? ""),
        let definition = definition(of: handler, in: rule)
      {
        diagnostic.file = definition.file
        diagnostic.line = definition.line
      }
      return .failed(diagnostic)
    }
  }

  static func diagnostic(_ error: LuaError, handler: Handler?, target: TargetID?) -> Diagnostic {
    var message = error.message
    switch error.kind {
    case .instructionLimit(let limit):
      message = "instruction budget of \(limit) exceeded (raise it with --max-instructions)"
    case .memoryLimit(let limit):
      message = "memory limit of \(limit) bytes exceeded (raise it with --max-memory)"
    default: break
    }
    return Diagnostic(
      message: message, file: error.file, line: error.line, handler: handler, target: target,
      traceback: error.traceback)
  }

  private static func names<Name: RawRepresentable<String>>(_ values: [Name]) -> LuaValue {
    .table(LuaTable(sequence: values.map { .string($0.rawValue) }))
  }
}

@available(*, unavailable) extension LuaRules: Sendable {}

/// The functions of the Lua rule API (api.lua) that Swift calls.
private struct RuleAPI {
  let beginDrag: LuaReference
  let setModifiers: LuaReference
  let endDrag: LuaReference
  let target: LuaReference
  let forget: LuaReference
  let forgetAll: LuaReference
  let droprules: LuaValue

  init(runtime: LuaRuntime, hostFunctions: [String: LuaValue], trusted: LuaValue) throws(LuaError) {
    let chunk = try runtime.load(source: PackageResources.api_lua, chunkName: "=[droprules api]")
    let api = try runtime.call(chunk, [.table(LuaTable(fields: hostFunctions)), trusted]).first?.tableValue
    func function(_ name: String) throws(LuaError) -> LuaReference {
      guard case .function(let function) = api?[name] else {
        throw LuaError(kind: .runtime, message: "the rule API has no function '\(name)'")
      }
      return function
    }
    beginDrag = try function("beginDrag")
    setModifiers = try function("setModifiers")
    endDrag = try function("endDrag")
    target = try function("target")
    forget = try function("forget")
    forgetAll = try function("forgetAll")
    droprules = api?["droprules"] ?? .nil
  }
}
