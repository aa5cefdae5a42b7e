/// The source handlers whose arguments or answers differ from the drop handlers':
/// `canDrag(item, source, info)` and `dragOperations(info, source)`, which answers a list.
/// They run once per drag, not per pointer step, so they take the general call path.
extension RuleFileState {
  func callCanDrag(of rule: RuleID, item: ItemID, target: TargetID, position: Int) -> HandlerResult {
    guard let function = ruleSet.all[rule].functions[Handler.canDrag.ordinal], let api else {
      return .notImplemented
    }
    do throws(LuaError) {
      guard
        case .reference(let itemObject) = try runtime.call(
          api.item, [.string(item)], keepingTables: true, hostWork: true
        ).first
      else { throw LuaError(kind: .runtime, message: "droprules could not make the object of item '\(item)'") }
      let source = try targetObject(at: position, id: target)
      let infoObject = try gatheringInfo()
      // The info is read-only here, as the board is: canDrag refuses by state (the board,
      // the modifiers, the other items being gathered), it does not change it.
      let answer =
        try runtime.call(function, [.reference(itemObject), .reference(source), .reference(infoObject)]).first ?? .nil
      switch answer {
      case .nil: return .returned(.nothing)
      case .boolean(let flag): return .returned(.boolean(flag))
      default: return .returned(.other(answer.typeName))
      }
    } catch {
      return .failed(Self.diagnostic(error, handler: .canDrag, target: target))
    }
  }

  func callDragOperations(of rule: RuleID, target: TargetID, position: Int) -> HandlerResult {
    guard let function = ruleSet.all[rule].functions[Handler.dragOperations.ordinal], let api, let infoObject else {
      return .notImplemented
    }
    do throws(LuaError) {
      let source = try targetObject(at: position, id: target)
      let answer = try runtime.call(function, [.reference(infoObject), .reference(source)], keepingTables: true)
      guard let first = answer.first, !first.isNil else { return .returned(.nothing) }
      let names = try runtime.call(api.operationNames, [first]).first?.tableValue?.sequence.map(\.stringValue)
      if let names, case let operations = names.compactMap({ $0.flatMap(DragOperation.init(rawValue:)) }),
        operations.count == names.count
      {
        return .returned(.operations(Set(operations)))
      }
      // A misspelt operation is named, with the nearest one.
      let unknown = (names ?? []).compactMap { $0 }.first { DragOperation(rawValue: $0) == nil }
      let named = unknown.map { word in
        "dragOperations returned an unknown operation '\(word)'"
          + (DidYouMean.suggestion(for: word, among: DragOperation.allCases.map(\.rawValue)).map {
            "; did you mean \($0)?"
          }
            ?? "; expected \"move\" or \"copy\"")
      }
      var diagnostic = Diagnostic(
        message: named
          ?? "dragOperations returned \(first.typeName); expected a list of operations such as "
          + "{ \"copy\" } or { \"move\", \"copy\" } (or nil for both)",
        handler: .dragOperations, target: target)
      if let definition = runtime.definition(of: function) {
        diagnostic.file = definition.file
        diagnostic.line = definition.line
      }
      return .failed(diagnostic)
    } catch {
      return .failed(Self.diagnostic(error, handler: .dragOperations, target: target))
    }
  }

  /// The info canDrag gets, made at the first canDrag of a drag.
  func gatheringInfo() throws(LuaError) -> LuaReference {
    if let object = gatheringInfoObjects.first { return object }
    guard let api else { throw LuaError(kind: .runtime, message: "droprules could not make the drag's info object") }
    let results = try runtime.call(api.newInfo, keepingTables: true, hostWork: true)
    guard results.count == 4, case .reference(let object) = results[0] else {
      throw LuaError(kind: .runtime, message: "droprules could not make the drag's info object")
    }
    gatheringInfoObjects = results.compactMap { value in
      guard case .reference(let reference) = value else { return nil }
      return reference
    }
    return object
  }

  /// Ends the info canDrag got: a rule that kept it gets an error, not what the drag
  /// was before its items were settled.
  func endGatheringInfo() {
    guard !gatheringInfoObjects.isEmpty else { return }
    end(gatheringInfoObjects)
    gatheringInfoObjects = []
  }
}
