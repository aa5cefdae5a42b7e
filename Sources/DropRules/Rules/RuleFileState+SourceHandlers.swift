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
      return unexpectedAnswer(
        named
          ?? "dragOperations returned \(first.typeName); expected a list of operations such as "
          + "{ \"copy\" } or { \"move\", \"copy\" } (or nil for both)",
        from: function, handler: .dragOperations, target: target)
    } catch {
      return .failed(Self.diagnostic(error, handler: .dragOperations, target: target))
    }
  }

  /// `dragPreview(items, source)`: `{ title = ..., subtitle = ..., badge = ... }`, or nil
  /// for the built-in preview.
  func callDragPreview(of rule: RuleID, target: TargetID, position: Int) -> HandlerResult {
    guard let function = ruleSet.all[rule].functions[Handler.dragPreview.ordinal], let api, let infoObject else {
      return .notImplemented
    }
    do throws(LuaError) {
      let source = try targetObject(at: position, id: target)
      guard
        case .reference(let items) = try runtime.call(
          api.itemsOf, [.reference(infoObject)], keepingTables: true, hostWork: true
        ).first
      else { throw LuaError(kind: .runtime, message: "droprules could not list the drag's items") }
      let answer = try runtime.call(function, [.reference(items), .reference(source)]).first ?? .nil
      if answer.isNil { return .returned(.nothing) }
      func text(_ key: String) -> String? {
        switch answer.tableValue?[key] {
        case .string(let text)?: String(text.prefix(DragEngineLimits.longestPresentationText))
        case .integer(let number)?: String(number)
        default: nil
        }
      }
      let fields = answer.tableValue?.fields ?? [:]
      let known: Set<String> = ["title", "subtitle", "badge"]
      guard let title = text("title"), !title.isEmpty, fields.keys.allSatisfy(known.contains),
        fields.allSatisfy({ key, value in key == "title" || value.stringValue != nil || value.intValue != nil })
      else {
        let got = answer.typeName == "table" ? "a table without a text title, or with other keys" : answer.typeName
        return unexpectedAnswer(
          "dragPreview returned \(got); expected { title = \"...\", subtitle = \"...\", badge = \"...\" } "
            + "(subtitle and badge optional) or nil",
          from: function, handler: .dragPreview, target: target)
      }
      return .returned(.preview(DragPreview(title: title, subtitle: text("subtitle"), badge: text("badge"))))
    } catch {
      return .failed(Self.diagnostic(error, handler: .dragPreview, target: target))
    }
  }

  /// `announce(event, info, target)`: a string that replaces the built-in sentence, or
  /// nil to keep it.
  func callAnnounce(of rule: RuleID, event: AnnouncementEvent?, target: TargetID, position: Int) -> HandlerResult {
    guard let function = ruleSet.all[rule].functions[Handler.announce.ordinal], let infoObject, let event else {
      return .notImplemented
    }
    do throws(LuaError) {
      let object = try targetObject(at: position, id: target)
      let answer =
        try runtime.call(function, [.string(event.rawValue), .reference(infoObject), .reference(object)]).first ?? .nil
      switch answer {
      case .nil: return .returned(.nothing)
      case .string(let text): return .returned(.text(String(text.prefix(DragEngineLimits.longestPresentationText))))
      default:
        return unexpectedAnswer(
          "announce returned \(answer.typeName); expected a string (or nil for the built-in announcement)",
          from: function, handler: .announce, target: target)
      }
    } catch {
      return .failed(Self.diagnostic(error, handler: .announce, target: target))
    }
  }

  /// A handler answered what it may not: the diagnostic names where the handler is
  /// defined, since no line of it raised.
  private func unexpectedAnswer(_ message: String, from function: LuaReference, handler: Handler, target: TargetID)
    -> HandlerResult
  {
    var diagnostic = Diagnostic(message: message, handler: handler, target: target)
    if let definition = runtime.definition(of: function) {
      diagnostic.file = definition.file
      diagnostic.line = definition.line
    }
    return .failed(diagnostic)
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
