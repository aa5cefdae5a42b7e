import DropRules
import Foundation

/// Where the rule files that a scenario or a test file names may be: in the folder that
/// holds that file and its subfolders, or under a path the user trusted on the command
/// line (`--rules`).
///
/// A scenario from elsewhere could otherwise name any readable file (`/etc/shadow`,
/// `../../x`), and the load error for a file that is not Lua quotes part of it. Paths
/// are compared after links are resolved, so a link cannot lead out either, and a
/// refused file is never read.
struct RuleFileConfinement: Sendable {
  /// Files and folders, as the user named them, whose files any scenario may name.
  var trustedRoots: [String]

  init(trustedRoots: [String] = []) {
    self.trustedRoots = trustedRoots
  }

  /// Throws for the first of `paths` that lies outside the folder of `file` (the
  /// scenario or test file that names them) and outside every trusted root.
  ///
  /// - Parameters:
  ///   - paths: the rule files named, resolved against the folder of `file`.
  ///   - file: nil for a scenario that came from no file: it has no folder of its own,
  ///     so only the trusted roots hold its rule files.
  /// - Throws: ``RuleFileRefusal`` for the first path refused.
  func check(_ paths: [String], namedBy file: String?) throws(RuleFileRefusal) {
    let folder = file.map { ($0 as NSString).deletingLastPathComponent }.map { $0.isEmpty ? "." : $0 }
    let ownRoot = folder.flatMap(Self.realPath)
    let roots = self.roots(namedBy: file)
    for path in paths {
      let real = Self.realPath(path)
      guard let real, roots.contains(where: { Self.path(real, isWithin: $0) }) else {
        throw RuleFileRefusal(file: file ?? "scenario", path: path, realPath: real, folder: ownRoot ?? folder)
      }
    }
  }

  /// The real paths rule files named by `file` may lie in: its folder's and the trusted
  /// roots'. A trusted root that is a file is its own root.
  func roots(namedBy file: String?) -> [String] {
    let folder = file.map { ($0 as NSString).deletingLastPathComponent }.map { $0.isEmpty ? "." : $0 }
    return ([folder.flatMap(Self.realPath)] + trustedRoots.map(Self.realPath)).compactMap { $0 }
  }

  /// `path` with every link, `.` and `..` resolved; nil when it does not resolve.
  static func realPath(_ path: String) -> String? { RealPath.of(path) }

  /// Whether `path` is `root` or lies below it.
  static func path(_ path: String, isWithin root: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }
}

/// A rule file that a scenario or test file named outside its folder tree and outside
/// every trusted root: refused, and not read.
public struct RuleFileRefusal: Error, Equatable, CustomStringConvertible {
  /// The scenario or test file that named it.
  public var file: String
  /// The rule path as it was resolved against that file's folder.
  public var path: String
  /// Where the path leads once links are resolved; nil when it does not resolve.
  public var realPath: String?
  /// The folder the naming file may name rule files in (and below); nil when it has none.
  public var folder: String?

  /// What was refused and what to do, without the naming file (a test's error already
  /// names it, with the line).
  public var reason: String {
    let kind = file.hasSuffix(".lua") ? "a test file" : "a scenario"
    let leadsTo = realPath.map { $0 == path ? "" : " (it leads to \($0))" } ?? " (it does not resolve)"
    let trusted = "a path given with \(Self.trustedRootsSetting)"
    let outside = folder.map { "outside \($0), the folder of \(kind) that names it" } ?? "outside every \(trusted)"
    return "rule file '\(path)'\(leadsTo) is \(outside); \(kind) names rule files in its own folder or below, "
      + "or under \(trusted)"
  }

  /// The setting that trusts more paths, as the reason names it; the command line names
  /// its flag (`--rules`) instead.
  public static let trustedRootsSetting = "ScenarioRunner.trustedRuleRoots"

  /// The naming file, then ``reason``.
  public var description: String { "\(file): \(reason)" }
}
