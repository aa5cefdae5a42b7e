import DropRules
import DropRulesTools
import Foundation

/// What `droprules test --watch` needs besides the runner: which watched files changed
/// since it last looked, and which tests a change calls for.
///
/// It polls (a `stat` per file, every few hundred milliseconds) rather than using a
/// platform file-events API: the same code on every system, and no dependency.
public struct TestWatch {
  /// The files and folders named on the command line.
  public let paths: [String]
  private var stamps: [String: FileStamp]

  /// What says a file changed: a save changes its modification time or size, and an
  /// editor that saves by replacing the file changes its inode.
  struct FileStamp: Equatable {
    var modified: timespec
    var size: Int64
    var inode: UInt64

    static func == (a: FileStamp, b: FileStamp) -> Bool {
      a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec && a.size == b.size
        && a.inode == b.inode
    }
  }

  /// Starts watching `paths` as they are now.
  public init(paths: [String]) {
    self.paths = paths
    stamps = Self.stamps(of: paths)
  }

  /// Watched files: rule files, modules, test files and scenarios under `paths`.
  public static func isWatched(_ relativePath: String) -> Bool {
    relativePath.hasSuffix(".lua") || relativePath.hasSuffix(".scenario.json")
  }

  /// The watched files added, removed or changed since the last call (or `init`), sorted.
  public mutating func changes() -> [String] {
    let now = Self.stamps(of: paths)
    let changed = Set(now.keys).union(stamps.keys).filter { now[$0] != stamps[$0] }
    stamps = now
    return changed.sorted()
  }

  private static func stamps(of paths: [String]) -> [String: FileStamp] {
    let files = FileDiscovery.files(in: paths, recursive: true, where: isWatched).files
    var stamps: [String: FileStamp] = [:]
    for file in files {
      var status = stat()
      guard stat(file, &status) == 0 else { continue }
      stamps[file] = FileStamp(
        modified: status.st_mtim, size: Int64(status.st_size), inode: UInt64(status.st_ino))
    }
    return stamps
  }

  /// The test files to run again after `changed`, in the order of `tests`; nil when any
  /// test could depend on the change, so all must run.
  ///
  /// - A test file or scenario that changed runs again (unless it was removed).
  /// - A rule file `x.lua` that changed runs `x_test.lua` beside it, every test file or
  ///   scenario that loaded it when it last ran, and every one that did not load (it
  ///   may load the file once it does).
  /// - A rule file no test is known to load, and a module under `lib/` (which `require`
  ///   loads, unseen by the runner), call for all tests.
  ///
  /// - Parameters:
  ///   - changed: the files that changed, were added or were removed.
  ///   - tests: every test file and scenario under the watched paths now.
  ///   - ruleFilesLoaded: ``RuleTestRunner/ruleFilesLoaded`` after the last run.
  /// - Returns: the test files to run, or nil to run them all.
  public static func testsToRun(
    after changed: [String], tests: [String], ruleFilesLoaded: [String: Set<String>]
  ) -> [String]? {
    let existing = Set(tests.map(canonical))
    let loadedBy = ruleFilesLoaded.reduce(into: [String: Set<String>]()) { loadedBy, entry in
      for rule in entry.value { loadedBy[canonical(rule), default: []].insert(canonical(entry.key)) }
    }
    let known = Set(ruleFilesLoaded.keys.map(canonical))
    let unknown = existing.subtracting(known)
    var selected: Set<String> = []
    for file in changed.map(canonical) {
      if FileDiscovery.isTestFile(file) {
        if existing.contains(file) { selected.insert(file) }
        continue
      }
      guard FileDiscovery.isRuleFile(file) else { return nil }
      var dependents = loadedBy[file] ?? []
      for suffix in FileDiscovery.luaTestSuffixes {
        let sibling = String(file.dropLast(".lua".count)) + suffix
        if existing.contains(sibling) { dependents.insert(sibling) }
      }
      guard !dependents.isEmpty else { return nil }
      selected.formUnion(dependents)
      selected.formUnion(unknown)
    }
    return tests.filter { selected.contains(canonical($0)) }
  }

  /// One spelling per file, so that `rules/x.lua` and `./rules/../rules/x.lua` match.
  static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
