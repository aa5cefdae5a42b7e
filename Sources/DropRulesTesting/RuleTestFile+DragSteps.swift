import DropRules
import DropRulesLua
import DropRulesModel

extension RuleTestFile {
  /// The step a test's `drag:over(...)`, `drag:at(...)`, ... asks for, from its kind and
  /// arguments: tests build steps, and the host performs them like any other.
  static func dragStep(_ kind: String?, _ values: [LuaValue]) throws -> DragStep {
    switch kind {
    case "over":
      guard let id = values.first?.stringValue else { throw LuaHostError("drag:over expects a target id") }
      let index = values.count > 1 ? values[1] : .nil
      // A step names a gap as a whole number, as a scenario file's does: 1.5 or NaN is refused, not dropped.
      guard index.isNil || index.intValue != nil else {
        let shown = index.doubleValue.map { String($0) } ?? index.typeName
        throw LuaHostError("drag:over: index must be a whole number, got \(shown)")
      }
      return .over(id, index: index.intValue)
    case "at":
      guard values.count >= 2, let x = values[0].doubleValue, let y = values[1].doubleValue else {
        throw LuaHostError("drag:at expects two numbers")
      }
      return .at(Point(x: x, y: y))
    case "modifiers":
      let names = values.first?.tableValue?.sequence.compactMap(\.stringValue) ?? []
      let modifiers = try names.map { name throws -> Modifier in
        guard let modifier = Modifier(rawValue: name) else {
          throw LuaHostError("unknown modifier '\(name)'; expected option, command, shift or control")
        }
        return modifier
      }
      return .modifiers(Set(modifiers))
    case "outside":
      let accepts = values.first?.tableValue?.sequence.compactMap(\.stringValue).map { TypeIdentifier($0) }
      var operation = DragOperation.copy
      if values.count > 1, !values[1].isNil {
        guard let name = values[1].stringValue, let parsed = DragOperation(rawValue: name) else {
          throw LuaHostError("drag:outside: operation must be \"copy\" or \"move\"")
        }
        operation = parsed
      }
      return .outside(accepts: accepts ?? ["public.item"], operation: operation)
    case "wait":
      guard let milliseconds = values.first?.intValue else {
        throw LuaHostError("drag:wait expects whole milliseconds, got \(values.first.map(\.typeName) ?? "nothing")")
      }
      if let problem = DragStep.waitProblem(milliseconds) { throw LuaHostError("drag:wait: " + problem) }
      return .wait(milliseconds: milliseconds)
    case "frames":
      let usage = "drag:frames expects { id = { x, y, width, height }, ... }"
      guard let fields = values.first?.tableValue?.fields, !fields.isEmpty else { throw LuaHostError(usage) }
      var frames: [TargetID: Rect] = [:]
      for (id, value) in fields {
        let numbers = value.tableValue?.sequence.compactMap(\.doubleValue) ?? []
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[2] >= 0, numbers[3] >= 0 else {
          throw LuaHostError("\(usage); '\(id)' has no such frame (four finite numbers, width and height not negative)")
        }
        frames[id] = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
      }
      return .frames(frames)
    case "drop": return .drop
    case "cancel": return .cancel
    default: throw LuaHostError("unknown drag step '\(kind ?? "nil")'")
    }
  }
}
