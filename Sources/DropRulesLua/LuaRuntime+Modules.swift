import Foundation

/// `require`: modules load from the directories of the loaded rule files only.
extension LuaRuntime {
  /// Allows `require` to load modules from `directory` (a rule file's folder).
  public func allowModules(in directory: String) {
    let resolved = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
    if !moduleDirectories.contains(resolved) { moduleDirectories.append(resolved) }
  }

  func readModule(named name: String) -> [LuaValue] {
    let isValidName =
      !name.isEmpty
      && name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      }
    guard isValidName else {
      return [.nil, .string("require: invalid module name '\(name)' (use dotted names such as 'util.colors')")]
    }
    let relative = name.replacingOccurrences(of: ".", with: "/") + ".lua"
    for directory in moduleDirectories {
      let candidate = URL(fileURLWithPath: directory).appendingPathComponent(relative)
      let resolved = candidate.resolvingSymlinksInPath().path
      guard resolved.hasPrefix(directory + "/"),
        let contents = FileManager.default.contents(atPath: resolved)
      else { continue }
      let data = Self.withoutByteOrderMark(contents)
      guard data.first != 0x1B else {
        return [.nil, .string("require: '\(resolved)' is a binary chunk; only .lua source is loaded")]
      }
      loadedFiles.insert(candidate.path)
      return [.string(String(decoding: data, as: UTF8.self)), .string(candidate.path)]
    }
    let searched = moduleDirectories.isEmpty ? "(no rule directories)" : moduleDirectories.joined(separator: ", ")
    return [.nil, .string("require: module '\(name)' not found in the rule directories: \(searched)")]
  }

  /// Source text without a leading UTF-8 byte order mark, which editors on Windows write
  /// and Lua would read as a syntax error. Lines are unchanged: the mark is on line 1.
  static func withoutByteOrderMark(_ data: Data) -> Data {
    data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
  }
}
