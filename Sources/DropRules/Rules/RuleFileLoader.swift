import Foundation

/// Loads rule files into a runtime and checks their shape: a table of target types to
/// rules, each with `accepts` and the five handlers.
struct RuleFileLoader {
  let runtime: LuaRuntime
  /// Reads the files, and the modules they require, for `runtime`.
  let sourceFiles: RuleSourceFiles
  /// Globals every rule file sees besides the sandbox (`droprules`).
  let globals: [String: LuaValue]

  /// Runs `path` and returns the rules it declares plus every problem found.
  func load(path: String) -> (rules: [Rule], problems: [RuleProblem]) {
    let (rules, problems, _) = loadWithAcceptedTypes(path: path)
    return (rules, problems)
  }

  /// Also returns every rule's accepted types, of broken rules too, so that `check`
  /// can report undeclared types alongside other problems.
  func loadWithAcceptedTypes(
    path: String
  ) -> (rules: [Rule], problems: [RuleProblem], accepted: [(targetType: String, types: [TypeIdentifier])]) {
    // Read only to find the line of a problem: a file without problems, loaded for every
    // test's scenario, must not pay for searching its text.
    lazy var sourceText = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let source = { sourceText }
    let results: [LuaValue]
    do {
      let environment = try runtime.newEnvironment(globals: globals)
      let chunk = try sourceFiles.loadFile(atPath: path, into: runtime, environment: environment)
      results = try runtime.call(chunk)
    } catch {
      return ([], [RuleProblem(error, file: path)], [])
    }
    guard case .table(let table) = results.first ?? .nil else {
      let got = results.first?.typeName ?? "nothing"
      let problem = RuleProblem(
        file: path, line: nil,
        message: "a rule file must return a table of target types to rules, but it returned \(got)")
      return ([], [problem], [])
    }
    var rules: [Rule] = []
    var problems: [RuleProblem] = []
    var accepted: [(targetType: String, types: [TypeIdentifier])] = []
    if !table.sequence.isEmpty || table.otherKeyCount > 0 {
      problems.append(
        RuleProblem(
          file: path, line: nil,
          message: "the returned table must be keyed by target type strings, e.g. [\"calendar.day\"] = { ... }"))
    }
    for (targetType, value) in table.fields.sorted(by: { $0.key < $1.key }) {
      guard case .table(let ruleTable) = value else {
        problems.append(
          RuleProblem(
            file: path, line: Self.line(ofKey: targetType, in: source()),
            message: "the rule for '\(targetType.capped(.name))' must be a table of handlers, got \(value.typeName)"))
        continue
      }
      let (rule, ruleProblems) = makeRule(targetType, from: ruleTable, path: path, source: source)
      problems += ruleProblems
      if let rule {
        rules.append(rule)
        if let warning = Self.missingPerformDrop(in: rule, line: Self.line(ofKey: targetType, in: source())) {
          problems.append(warning)
        }
      }
      let types = Self.typeNames(ruleTable["accepts"])
      if !types.isEmpty { accepted.append((targetType, types)) }
    }
    // In the order of the file, as a compiler lists them; ties keep their order.
    let inFileOrder = problems.enumerated().sorted {
      ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
    }
    return (rules, inFileOrder.map(\.element), accepted)
  }

  /// A warning for a drop rule (one with `accepts`, a drop handler, or nothing at all)
  /// that has no `performDrop`: its targets take part in drags but forbid every drop.
  /// `line` is looked up only for a warning.
  static func missingPerformDrop(in rule: Rule, line: @autoclosure () -> Int?) -> RuleProblem? {
    guard !rule.implements(.performDrop) else { return nil }
    let dropHandlers = Handler.allCases.filter { !$0.isSourceHandler && rule.implements($0) }.map(\.rawValue)
    let makesDropRule = (rule.accepts == nil ? [] : ["accepts"]) + dropHandlers
    let isEmpty = makesDropRule.isEmpty && !Handler.allCases.contains { rule.implements($0) }
    // A rule of source handlers only is no drop rule: its targets are passed over.
    guard !makesDropRule.isEmpty || isEmpty else { return nil }
    let has = isEmpty ? "is empty" : "has \(makesDropRule.joined(separator: ", ")) but no performDrop"
    return RuleProblem(
      file: rule.file, line: line(),
      message:
        "the rule for '\(rule.targetType.capped(.name))' \(has), so its targets forbid every drop; add performDrop "
        + "(return true to commit the drop)",
      severity: .warning)
  }

  private static func typeNames(_ value: LuaValue) -> [TypeIdentifier] {
    switch value {
    case .string(let type): [TypeIdentifier(type)]
    case .table(let list): list.sequence.compactMap(\.stringValue).map { TypeIdentifier($0) }
    default: []
    }
  }

  private func makeRule(
    _ targetType: String, from table: LuaTable, path: String, source: () -> String
  ) -> (Rule?, [RuleProblem]) {
    var problems: [RuleProblem] = []
    var handlers: [Handler: LuaReference] = [:]
    var accepts: [TypeIdentifier]?
    var effects: Set<RuleEffect> = []
    let validNames = ["accepts"] + RuleEffect.allCases.map(\.rawValue) + Handler.allCases.map(\.rawValue)
    for (key, value) in table.fields.sorted(by: { $0.key < $1.key }) {
      if let effect = RuleEffect(rawValue: key) {
        guard case .boolean(let flag) = value else {
          problems.append(
            RuleProblem(
              file: path, line: Self.line(ofKey: key, in: source()),
              message: "\(key) of '\(targetType.capped(.name))' must be true or false, got \(value.typeName)"))
          continue
        }
        if flag { effects.insert(effect) }
        continue
      }
      if key == "accepts" {
        switch value {
        case .string(let type): accepts = [TypeIdentifier(type)]
        case .table(let list) where list.fields.isEmpty && list.sequence.allSatisfy({ $0.stringValue != nil }):
          accepts = list.sequence.compactMap(\.stringValue).map { TypeIdentifier($0) }
        default:
          problems.append(
            RuleProblem(
              file: path, line: Self.line(ofKey: key, in: source()),
              message:
                "accepts of '\(targetType.capped(.name))' must be a list of type identifiers, got \(value.typeName)"))
        }
        continue
      }
      guard let handler = Handler(rawValue: key) else {
        var message = "unknown handler '\(key.capped(.name))' in the rule for '\(targetType.capped(.name))'"
        if let suggestion = DidYouMean.suggestion(for: key, among: validNames) {
          message += "; did you mean \(suggestion)?"
        } else {
          message += "; valid keys are \(validNames.joined(separator: ", "))"
        }
        problems.append(RuleProblem(file: path, line: line(of: value, key: key, source: source), message: message))
        continue
      }
      guard case .function(let function) = value else {
        problems.append(
          RuleProblem(
            file: path, line: Self.line(ofKey: key, in: source()),
            message: "\(key) of '\(targetType.capped(.name))' must be a function, got \(value.typeName)"))
        continue
      }
      handlers[handler] = function
    }
    if !table.sequence.isEmpty || table.otherKeyCount > 0 {
      problems.append(
        RuleProblem(
          file: path, line: Self.line(ofKey: targetType, in: source()),
          message: "the rule for '\(targetType.capped(.name))' has entries without a handler name"))
    }
    guard problems.isEmpty else { return (nil, problems) }
    return (Rule(targetType: targetType, accepts: accepts, handlers: handlers, file: path, effects: effects), [])
  }

  private func line(of value: LuaValue, key: String, source: () -> String) -> Int? {
    if case .function(let function) = value, let definition = runtime.definition(of: function) {
      return definition.line
    }
    return Self.line(ofKey: key, in: source())
  }

  /// The first line that assigns `key` (`key =` or `["key"] =`), for values that carry
  /// no line of their own. Byte by byte: a file with a problem in every rule asks once a
  /// rule, and each asking walked the file through Foundation's string search.
  static func line(ofKey key: String, in source: String) -> Int? {
    let name = Array(key.utf8)
    let doubleQuoted = Array("[\"".utf8) + name + Array("\"]=".utf8)
    let singleQuoted = Array("['".utf8) + name + Array("']=".utf8)
    let assigned = name + [UInt8(ascii: "=")]
    var compact: [UInt8] = []
    for (offset, line) in source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    {
      compact.removeAll(keepingCapacity: true)
      compact.append(contentsOf: line.lazy.filter { $0 != UInt8(ascii: " ") })
      if Self.start(of: doubleQuoted, in: compact) != nil || Self.start(of: singleQuoted, in: compact) != nil {
        return offset + 1
      }
      // The first `key=` on the line, unless it ends a longer name (`other_key=`, `t.key=`).
      if let start = Self.start(of: assigned, in: compact), start == 0 || !Self.continuesName(compact[start - 1]) {
        return offset + 1
      }
    }
    return nil
  }

  /// Where `needle` first starts in `haystack` (Foundation's search is generic, and slow
  /// on short lines).
  private static func start(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty ? 0 : nil }
    let first = needle[0]
    for start in 0...(haystack.count - needle.count) where haystack[start] == first {
      var matched = 1
      while matched < needle.count && haystack[start + matched] == needle[matched] { matched += 1 }
      if matched == needle.count { return start }
    }
    return nil
  }

  /// Whether a byte before a key makes it part of a longer name or a field access.
  private static func continuesName(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "."):
      true
    default: byte >= 0x80
    }
  }

  /// The first line that mentions `text` in quotes.
  static func line(ofString text: String, in source: String) -> Int? {
    let name = Array(text.utf8)
    let doubleQuoted = [UInt8(ascii: "\"")] + name + [UInt8(ascii: "\"")]
    let singleQuoted = [UInt8(ascii: "'")] + name + [UInt8(ascii: "'")]
    for (offset, line) in source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
    where Self.start(of: doubleQuoted, in: Array(line)) != nil || Self.start(of: singleQuoted, in: Array(line)) != nil {
      return offset + 1
    }
    return nil
  }
}
