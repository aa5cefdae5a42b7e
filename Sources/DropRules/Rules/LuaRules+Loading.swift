import Foundation

/// Loading rule files: running their top level, the only time types may be declared.
extension LuaRules {
  /// Loads rule files and returns every problem, warnings included. All files are read.
  func load(paths: [String]) -> [RuleProblem] {
    isLoading = true
    defer { isLoading = false }
    let loader = RuleFileLoader(runtime: runtime, sourceFiles: sourceFiles, globals: ["droprules": droprulesGlobal])
    var problems: [RuleProblem] = []
    var accepted: [(path: String, targetType: String, types: [TypeIdentifier])] = []
    for path in paths {
      let (fileRules, fileProblems, fileAccepted) = loader.loadWithAcceptedTypes(path: path)
      problems += fileProblems
      accepted += fileAccepted.map { (path, $0.targetType, $0.types) }
      for rule in fileRules {
        do { try add(rule) } catch { problems.append(error) }
      }
    }
    let types = engine?.types ?? TypeRegistry()
    for entry in accepted {
      for type in entry.types where !types.isKnown(type) {
        // Read only for a warning: the files of every test's scenario load here.
        let source = (try? String(contentsOfFile: entry.path, encoding: .utf8)) ?? ""
        problems.append(
          RuleProblem(
            file: entry.path, line: RuleFileLoader.line(ofString: type.rawValue, in: source),
            message:
              "accepted type '\(type)' of '\(entry.targetType)' is neither built in nor declared; declare it with droprules.declareType",
            severity: .warning))
      }
    }
    return problems
  }
}
