import DropRules
import Foundation

/// Turns the paths a user names into the files a command works on: a file stands for
/// itself; a directory gives the files under it of the kind the command wants.
public enum FileDiscovery {
  /// Rule files: `*.lua`, except tests (`*_test.lua`, `*_spec.lua`), modules (anything
  /// under a `lib/` folder, which only `require` loads) and editor definitions
  /// (`*.d.lua`, such as the `types/droprules.d.lua` that `droprules init` writes).
  public static func isRuleFile(_ relativePath: String) -> Bool {
    relativePath.hasSuffix(".lua") && !isLuaTestFile(relativePath) && !relativePath.hasSuffix(".d.lua")
      && !relativePath.split(separator: "/").dropLast().contains("lib")
  }

  /// The endings of Lua test files: droprules' own, and busted's.
  public static let luaTestSuffixes = ["_test.lua", "_spec.lua"]

  /// Whether a file is a Lua test file (`*_test.lua`, or a busted spec, `*_spec.lua`).
  public static func isLuaTestFile(_ relativePath: String) -> Bool {
    luaTestSuffixes.contains { relativePath.hasSuffix($0) }
  }

  /// What `droprules test` runs: Lua test files and scenario files.
  public static func isTestFile(_ relativePath: String) -> Bool {
    isLuaTestFile(relativePath) || relativePath.hasSuffix(".scenario.json")
  }

  /// The file a Lua test file tests by its name: `calendar_test.lua` and
  /// `calendar_spec.lua` test `calendar.lua`; nil for a file that is not a test file.
  public static func testedFile(of testFile: String) -> String? {
    guard let suffix = luaTestSuffixes.first(where: { testFile.hasSuffix($0) }) else { return nil }
    return String(testFile.dropLast(suffix.count)) + ".lua"
  }

  /// The files `paths` name, sorted, each once (a file named twice, by the same path or
  /// through a folder, a `..` or a link, is kept under its first name), and the paths
  /// that do not exist. A directory's files are those that lie inside it: a link under
  /// it that leads outside is not followed.
  ///
  /// - Parameters:
  ///   - paths: the files and directories the user named.
  ///   - recursive: whether directories are searched below their top level.
  ///   - wanted: which files of a directory to take, by their path relative to it.
  ///     Files named directly are always taken.
  /// - Returns: the files found, and the paths that do not exist.
  public static func files(
    in paths: [String], recursive: Bool, where wanted: (String) -> Bool
  ) -> (files: [String], missing: [String]) {
    var files: [String] = []
    var missing: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        missing.append(path)
        continue
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      let relatives =
        recursive
        ? (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? []
        : (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      let root = RealPath.of(path) ?? path
      files += relatives.filter(wanted).map { base + "/" + $0 }.filter { file in
        guard let real = RealPath.of(file) else { return false }
        return real.hasPrefix(root + "/")
      }
    }
    var seen: Set<String> = []
    let unique = files.filter { seen.insert(RuleFileConfinement.realPath($0) ?? $0).inserted }
    return (unique.sorted(), missing)
  }

  /// Rule files grouped by folder, since the files of one folder load into one host.
  public static func ruleFileGroups(in paths: [String], recursive: Bool) -> (groups: [[String]], missing: [String]) {
    let (files, missing) = files(in: paths, recursive: recursive, where: isRuleFile)
    let byFolder = Dictionary(grouping: files) { ($0 as NSString).deletingLastPathComponent }
    return (byFolder.keys.sorted().map { byFolder[$0] ?? [] }, missing)
  }

  /// What `droprules fuzz` takes from `paths`: the rule files, grouped by folder, and the
  /// `*_test.lua` files whose properties it checks. A test file named directly is a test
  /// file, as one found in a folder is, never a rule file.
  public static func fuzzInputs(in paths: [String]) -> (ruleGroups: [[String]], testFiles: [String], missing: [String])
  {
    let (groups, missing) = ruleFileGroups(in: paths, recursive: false)
    let (tests, _) = files(in: paths, recursive: false) { $0.hasSuffix("_test.lua") }
    let ruleGroups = groups.map { $0.filter { !$0.hasSuffix("_test.lua") } }.filter { !$0.isEmpty }
    return (ruleGroups, tests.filter { $0.hasSuffix("_test.lua") }, missing)
  }
}
