import Foundation

/// Loading the state's rule file: running its top level, the only time types may be declared.
extension RuleFileState {
  /// Runs the rule file at `path` and returns the rules it declares, every problem
  /// found, and each rule's accepted types (for warnings once every file has loaded).
  /// The caller adds the rules it keeps with ``add(_:)``.
  func load(
    path: String, in view: any RuleView
  ) -> (rules: [Rule], problems: [RuleProblem], accepted: [(targetType: String, types: [TypeIdentifier])]) {
    isLoading = true
    defer { isLoading = false }
    let loader = RuleFileLoader(runtime: runtime, sourceFiles: sourceFiles, globals: ["droprules": droprulesGlobal])
    return with(view) { loader.loadWithAcceptedTypes(path: path) }
  }
}
