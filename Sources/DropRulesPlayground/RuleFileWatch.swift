import DropRules
import Foundation

/// Tells whether rule files changed on disk since they were last read, so the playground
/// reloads them before the next drag after an author saves.
///
/// It compares contents, not modification times: an editor that saves twice within the
/// clock's resolution, or restores a file's time, still counts as a change. Besides the
/// rule files it watches the `.lua` files beside them, which `require` can load.
struct RuleFileWatch {
  private var contents: [String: Data?] = [:]

  /// Starts watching `files`, as they are now.
  init(files: [String]) { contents = Self.read(Self.watched(files)) }

  /// Whether any watched file changed, appeared or went away since the last look; then
  /// remembers them as they are, with `files` the rule files from now on.
  mutating func changed(files: [String]) -> Bool {
    let now = Self.read(Self.watched(files))
    defer { contents = now }
    return now != contents
  }

  /// The rule files and the Lua files in their folders.
  static func watched(_ files: [String]) -> Set<String> {
    var paths = Set(files)
    let manager = FileManager.default
    for folder in Set(files.map { ($0 as NSString).deletingLastPathComponent }) {
      let path = folder.isEmpty ? "." : folder
      for name in (try? manager.contentsOfDirectory(atPath: path)) ?? [] where name.hasSuffix(".lua") {
        paths.insert((path as NSString).appendingPathComponent(name))
      }
    }
    return paths
  }

  private static func read(_ paths: Set<String>) -> [String: Data?] {
    var contents: [String: Data?] = [:]
    for path in paths {
      contents[path] = FileContents.bytes(atPath: path, maximumBytes: RuleSourceFiles.maximumSourceBytes)
    }
    return contents
  }
}
