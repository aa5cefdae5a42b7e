import Foundation

/// Finds rule files: a file stands for itself; a directory gives its `*.lua` files,
/// except tests (`*_test.lua`) and modules (anything under a `lib/` folder).
enum RuleFiles {
  /// Rule files grouped by folder: files in one folder load into one host together.
  static func groups(in paths: [String], recursive: Bool) -> (groups: [[String]], missing: [String]) {
    var byFolder: [String: [String]] = [:]
    var missing: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        missing.append(path)
        continue
      }
      let files = isDirectory.boolValue ? ruleFiles(inDirectory: path, recursive: recursive) : [path]
      for file in files { byFolder[(file as NSString).deletingLastPathComponent, default: []].append(file) }
    }
    return (byFolder.keys.sorted().map { (byFolder[$0] ?? []).sorted() }, missing)
  }

  static func ruleFiles(inDirectory directory: String, recursive: Bool) -> [String] {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    let relatives: [String]
    if recursive {
      relatives = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []
    } else {
      relatives = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }
    return relatives.filter { relative in
      relative.hasSuffix(".lua") && !relative.hasSuffix("_test.lua")
        && !relative.split(separator: "/").dropLast().contains("lib")
    }.map { base + "/" + $0 }.sorted()
  }
}
