import Foundation

/// One rule file in a Lua state of its own: its rules' handlers, run with host objects
/// for `info`, items, targets and the board.
///
/// Each file gets its own state, so nothing one file does to its state (its globals,
/// its memory, its collector's work) reaches another file's: ``RuleFiles`` holds them
/// all and is what the engine calls. Objects are made once per id and read the engine's
/// staged board; `info` reads the current call's context from ``currentCall`` when asked,
/// and a pointer step writes only its two points in place before calling the handler.
final class RuleFileState {
  let runtime: LuaRuntime
  /// The rule files and the modules they require: the runtime reads no file itself.
  let sourceFiles: RuleSourceFiles
  /// What the running call, or the loading file, reads of the drag and stages through:
  /// given with each call (``RuleFiles``), nil between them. The state keeps no pointer
  /// back to the engine. Unretained: the engine is running the call that set it, and a
  /// retain and release on every pointer step would buy nothing.
  @exclusivity(unchecked) private(set) unowned(unsafe) var view: (any RuleView)?
  /// The engine whose version ``boardVersion`` watches.
  private var watchedView: ObjectIdentifier?
  /// The file serving each target type (``RuleFiles`` fills it): a file changes data only
  /// on targets of its own types.
  var typeOwners = TargetTypeOwners()
  /// This file's place among the loaded files, as ``typeOwners`` names owners.
  var loadOrder = 0
  /// The file's rules, by the ids this state gives them (``RuleFiles`` maps the
  /// engine's ids to these).
  private(set) var ruleSet = RuleSet()
  /// Bytes charged for the copies rules made in the current drag (`item:copy`), held
  /// against the memory cap until the drag ends.
  var copiedBytes = 0
  /// True while rule files run their top level: the only time types may be declared.
  var isLoading = false
  /// The custom types this file declared first: only it may add to what they conform to.
  var typesDeclaredHere: Set<TypeIdentifier> = []
  /// Every type this file's declarations named (``typesNamedPerFile`` at most), and
  /// their bytes (``typeNameBytesPerFile`` at most).
  var typesNamedHere: Set<TypeIdentifier> = []
  var typeNameBytesHere = 0
  private(set) var api: RuleAPI?
  /// The board's version and how many boards there were when the host last looked: the
  /// objects cached by board position are dropped when the board was replaced.
  @exclusivity(unchecked) private var seenVersion = 0
  private var seenBoards = 0
  /// Where the engine's board version lives (the runtime keeps it alive), read on every
  /// call without touching the weak engine or counting references.
  @exclusivity(unchecked) private var boardVersion: UnsafePointer<Int>?
  /// Handler functions' slots: `handlerSlots[rule * handlerCount + ordinal]`.
  @exclusivity(unchecked) private var handlerSlots: [LuaSlot] = []
  /// Target objects' slots by board position, and the references that keep them alive.
  @exclusivity(unchecked) private var targetSlots: [LuaSlot] = []
  private var targetObjects: [LuaReference?] = []
  /// The slots of the current drag's `info` and of its two points, which the host writes
  /// in place on every call; `.none` between drags.
  @exclusivity(unchecked) private var info = InfoSlots()
  /// The current drag's `info` objects (the info, its backing, its two points), kept
  /// alive while `info` names their slots.
  private var infoObjects: [LuaReference] = []
  /// The call running in this state, which `info`'s fields of the call read (its index,
  /// operation, the item under the pointer...): nil between calls. Nothing of it is kept
  /// in Lua, so no field can show another call's value.
  private(set) var currentCall: (handler: Handler, context: HandlerContext, position: Int)?
  /// The current drag's `info`, nil between drags.
  var infoObject: LuaReference? { infoObjects.first }
  /// The `info` canDrag gets while the drag gathers its items (every item asked for, no
  /// source yet), ended once the drag's own `info` is made.
  var gatheringInfoObjects: [LuaReference] = []

  private struct InfoSlots {
    var object = LuaSlot.none
    var location = LuaSlot.none
    var globalLocation = LuaSlot.none
  }

  /// How many handlers a rule can have; kept here because `Handler.allCases`, read from
  /// another module, builds its array on every read.
  private let handlerCount = Handler.allCases.count
  /// The proposals by the code the runtime classifies an answer with (the order they
  /// were interned in).
  let proposals = Proposal.allCases

  init(limits: LuaLimits) throws(LuaError) {
    runtime = try LuaRuntime(limits: limits)
    sourceFiles = RuleSourceFiles()
    runtime.moduleReader = sourceFiles.module(named:)
    // A handler's answer is classified in C, by these words: the order is the codes'.
    try runtime.internSymbols(proposals.map(\.rawValue), symbolKey: "operation", numberKey: "index", flagKey: "open")
    let api = try RuleAPI(
      runtime: runtime, hostFunctions: makeHostFunctions().merging(makeHostObjectFunctions()) { first, _ in first },
      trusted: runtime.trustedLibrary)
    self.api = api
    runtime.forgetAtEveryCall(api.callReadings)
  }

  /// The `droprules` global rule files see (each environment copies it).
  var droprulesGlobal: LuaValue { api?.droprules ?? .nil }

  func add(_ rule: Rule) throws(RuleProblem) {
    try ruleSet.add(rule)
    handlerSlots += rule.functions.map { $0?.slot ?? .none }
  }

  // MARK: Calls from RuleFiles, by this state's rule ids

  func describe(_ rule: RuleID) -> RuleDescription {
    let handlers = Handler.allCases.filter { ruleSet.all[rule].implements($0) }
    var definitions: [Handler: SourceLocation] = [:]
    for handler in handlers {
      if let definition = definition(of: handler, in: rule) {
        definitions[handler] = SourceLocation(file: definition.file, line: definition.line)
      }
    }
    return RuleDescription(handlers: Set(handlers), accepts: ruleSet.all[rule].accepts, definitions: definitions)
  }

  func definition(of handler: Handler, in rule: RuleID) -> (file: String, line: Int)? {
    ruleSet.all[rule].functions[handler.ordinal].flatMap(runtime.definition(of:))
  }

  func call(
    _ handler: Handler, of rule: RuleID, target: TargetID, position: Int, context: HandlerContext,
    in view: any RuleView
  ) -> HandlerResult {
    let function = handlerSlots[rule &* handlerCount &+ handler.ordinal]
    // Slot ids, not slots, are compared: this runs on every pointer step.
    guard function.id != 0 else { return .notImplemented }
    if ObjectIdentifier(view) != watchedView { watch(view) }
    if let boardVersion, boardVersion.pointee != seenVersion { catchUp(with: view) }
    // Restored after the call: a call nested in this one (a host function that runs
    // Lua again) leaves the outer call's fields as they were.
    let outerCall = currentCall
    let outerView = self.view
    currentCall = (handler, context, position)
    self.view = view
    defer {
      currentCall = outerCall
      self.view = outerView
      if outerCall != nil { runtime.forgetCallReadings() }
    }
    if handler == .canDrag {
      return callCanDrag(of: rule, item: item(at: context.item, in: position) ?? "", target: target, position: position)
    }
    if info.object.id == 0 {
      // The items are gathered: the info canDrag saw ends, and the drag's own begins.
      endGatheringInfo()
      do { try makeInfo() } catch { return .failed(Self.diagnostic(error, handler: handler, target: target)) }
    }
    switch handler {
    case .dragOperations: return callDragOperations(of: rule, target: target, position: position)
    case .dragPreview: return callDragPreview(of: rule, target: target, position: position)
    case .announce: return callAnnounce(of: rule, event: context.announcing, target: target, position: position)
    default: break
    }
    do {
      let answer = try runtime.callWithPoints(
        function, info.object, try targetSlot(at: position, id: target), point: info.location,
        globalPoint: info.globalLocation, local: (context.location.x, context.location.y),
        global: (context.pointer.x, context.pointer.y))
      return result(answer, handler: handler, of: rule, target: target)
    } catch {
      return .failed(Self.diagnostic(error, handler: handler, target: target))
    }
  }

  /// Brings what the host keeps beside Lua up to the board, once its version moved:
  /// after a new board, the objects cached by position.
  private func catchUp(with view: any RuleView) {
    seenVersion = view.version.value
    guard view.boardsReplaced != seenBoards else { return }
    seenBoards = view.boardsReplaced
    forgetTargetPositions()
  }

  /// Drops the target objects kept by board position: the board they indexed is gone.
  private func forgetTargetPositions() {
    targetSlots = []
    targetObjects = []
  }

  /// Watches the version of `view`'s engine: every way into Lua compares it first, and
  /// once it moved empties what objects read of the board (api.lua), so they read it
  /// again. Positions kept for another engine's board are void.
  private func watch(_ view: any RuleView) {
    watchedView = ObjectIdentifier(view)
    runtime.watchVersion(at: view.version.address, keepingAlive: view.version)
    boardVersion = view.version.address
    seenVersion = view.version.value
    seenBoards = view.boardsReplaced
    forgetTargetPositions()
  }

  /// Runs `body` with `view` as the view host functions read (loading a file: its top
  /// level may declare types).
  func with<Result>(_ view: any RuleView, _ body: () -> Result) -> Result {
    let outerView = self.view
    self.view = view
    defer { self.view = outerView }
    return body()
  }

  /// Makes the drag's `info`, at the first handler that is given one: what it holds of
  /// the drag it reads from the engine when asked (api.lua).
  private func makeInfo() throws(LuaError) {
    guard let api else { throw LuaError(kind: .runtime, message: "droprules could not make the drag's info object") }
    let results = try runtime.call(api.newInfo, keepingTables: true, hostWork: true)
    guard results.count == 4, case .reference(let object) = results[0], case .reference(let backing) = results[1],
      case .reference(let location) = results[2], case .reference(let globalLocation) = results[3]
    else { throw LuaError(kind: .runtime, message: "droprules could not make the drag's info object") }
    infoObjects = [object, backing, location, globalLocation]
    info = InfoSlots(object: object.slot, location: location.slot, globalLocation: globalLocation.slot)
  }

  /// Empties an info's backing and its two points, with the ended drag's metatable.
  func end(_ objects: [LuaReference]) {
    guard let api else { return }
    for table in objects.dropFirst() {
      runtime.empty(table.slot, settingMetatable: api.endedDragMetatable.slot)
    }
  }

  func dragDidEnd() {
    // The info's backing and its two points: a rule that kept any of them gets an error
    // from now on, not the last drag's values.
    end(infoObjects)
    endGatheringInfo()
    info = InfoSlots()
    infoObjects = []
    copiedBytes = 0
    updateHeldBytes()
    runtime.releasePrintedOutput()
  }

  func takePrintedLines() -> [String] { runtime.takePrintedLines() }

  /// What the host holds for this file's rules beyond the Lua heap, counted against its
  /// cap: the copies they made in the current drag. The data rules store is the board's,
  /// with shares of its own (``targetDataAvailable``, ``itemDataAvailable``): counted
  /// against each file's cap, one file's data shrank every other file's room.
  func updateHeldBytes() {
    runtime.heldBytes = copiedBytes
  }

  // MARK: Calls

  /// The id of the item at a 1-based place in the items of the target at `position`.
  func item(at place: Int?, in position: Int) -> ItemID? {
    guard let place, let items = view?.currentBoard.targets[position].items, items.indices.contains(place - 1)
    else { return nil }
    return items[place - 1]
  }

  private func targetSlot(at position: Int, id: TargetID) throws(LuaError) -> LuaSlot {
    if position < targetSlots.count, targetSlots[position].id != 0 { return targetSlots[position] }
    return try targetObject(at: position, id: id).slot
  }

  func targetObject(at position: Int, id: TargetID) throws(LuaError) -> LuaReference {
    if position < targetObjects.count, let object = targetObjects[position] { return object }
    guard let api,
      case .reference(let object) = try runtime.call(api.target, [.string(id)], keepingTables: true, hostWork: true)
        .first
    else {
      throw LuaError(kind: .runtime, message: "droprules could not make the object of target '\(id)'")
    }
    if position >= targetSlots.count {
      targetSlots += Array(repeating: .none, count: position - targetSlots.count + 1)
      targetObjects += Array(repeating: nil, count: position - targetObjects.count + 1)
    }
    targetSlots[position] = object.slot
    targetObjects[position] = object
    return object
  }

  static func diagnostic(_ error: LuaError, handler: Handler?, target: TargetID?) -> Diagnostic {
    var message = error.message
    let limit = RuleLimit(error.kind)
    switch error.kind {
    case .instructionLimit(let budget): message = "instruction budget of \(budget) exceeded"
    case .memoryLimit(let cap): message = "memory limit of \(cap) bytes exceeded"
    case .timeLimit(let milliseconds): message = "time limit of \(milliseconds) ms exceeded"
    default: break
    }
    if let limit { message += " (raise it with \(limit.setting))" }
    return Diagnostic(
      message: message, file: error.file, line: error.line, handler: handler, target: target,
      traceback: error.traceback, limit: limit)
  }

}

@available(*, unavailable) extension RuleFileState: Sendable {}

/// The functions of the Lua rule API (api.lua) that Swift calls.
struct RuleAPI {
  let newInfo: LuaReference
  /// What info read of the running call: emptied as every call begins.
  let callReadings: LuaReference
  let operationNames: LuaReference
  let item: LuaReference
  /// The metatable an ended drag's info gets.
  let endedDragMetatable: LuaReference
  let target: LuaReference
  let itemsOf: LuaReference
  let droprules: LuaValue

  init(runtime: LuaRuntime, hostFunctions: [String: LuaValue], trusted: LuaValue) throws(LuaError) {
    let chunk = try runtime.load(source: PackageResources.api_lua, chunkName: "=[droprules api]")
    let api = try runtime.call(chunk, [.table(LuaTable(fields: hostFunctions)), trusted], hostWork: true).first?
      .tableValue
    func function(_ name: String) throws(LuaError) -> LuaReference {
      guard case .function(let function) = api?[name] else {
        throw LuaError(kind: .runtime, message: "the rule API has no function '\(name)'")
      }
      return function
    }
    newInfo = try function("newInfo")
    guard case .reference(let readings) = try runtime.call(try function("callReadings"), keepingTables: true).first
    else { throw LuaError(kind: .runtime, message: "the rule API has no call readings") }
    callReadings = readings
    operationNames = try function("operationNames")
    item = try function("item")
    guard
      case .reference(let ended) = try runtime.call(
        try function("endedDragMetatable"), keepingTables: true, hostWork: true
      ).first
    else { throw LuaError(kind: .runtime, message: "the rule API has no ended drag metatable") }
    endedDragMetatable = ended
    target = try function("target")
    itemsOf = try function("itemsOf")
    droprules = api?["droprules"] ?? .nil
  }
}
