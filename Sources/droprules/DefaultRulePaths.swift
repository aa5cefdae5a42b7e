import Foundation

/// Where `test` and `check` look when given no path: the `rules/` folder of a project
/// laid out as this repository is, else the current folder (the rule set `init` wrote).
enum DefaultRulePaths {
  static var paths: [String] {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: "rules", isDirectory: &isFolder) && isFolder.boolValue
      ? ["rules/"] : ["."]
  }
}
