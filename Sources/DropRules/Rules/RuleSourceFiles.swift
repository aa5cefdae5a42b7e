import DropRulesLua
import Foundation

/// Where rule code comes from: rule files, and the modules they `require` from the
/// folders of the files loaded. The Lua runtime reads no file itself; this is the reader
/// the rule binding gives it.
package final class RuleSourceFiles {
  /// The folders `require` may load modules from, resolved.
  package private(set) var moduleDirectories: [String] = []
  /// The folders (real paths) rule files must lie in once opened; nil for anywhere.
  package var confinement: [String]?

  /// The largest rule file or module droprules reads: larger Lua is generated data, read
  /// whole and compiled before any limit could stop it.
  package static let maximumSourceBytes = 4 << 20

  /// No files yet: ``loadFile(atPath:into:environment:)`` and
  /// ``allowModules(in:)`` add folders. Give a runtime ``module(named:)`` as its module
  /// reader, so its `require` reads through them.
  package init() {}

  /// Compiles the file at `path` as text in `runtime`, named by `path` in errors, and
  /// lets `require` load modules from its folder.
  package func loadFile(
    atPath path: String, into runtime: LuaRuntime, environment: LuaReference?
  ) throws(LuaError) -> LuaReference {
    if let problem = Self.sizeProblem(atPath: path) { throw LuaError(kind: .refused, message: problem, file: path) }
    let contents: Data
    switch FileContents.bytes(atPath: path, maximumBytes: Self.maximumSourceBytes, confinedTo: confinement) {
    case .success(let bytes): contents = bytes
    case .failure(.unreadable): throw LuaError(kind: .refused, message: "cannot read the file", file: path)
    case .failure(.outside(let real)):
      throw LuaError(
        kind: .refused,
        message: "the file opened lies at \(real), outside the folders rule files may come from; not loaded",
        file: path)
    }
    if let problem = Self.sizeProblem(ofBytes: contents.count) {
      throw LuaError(kind: .refused, message: problem, file: path)
    }
    let chunk = try runtime.load(source: contents, chunkName: "@" + path, environment: environment)
    let directory = (path as NSString).deletingLastPathComponent
    allowModules(in: directory.isEmpty ? "." : directory)
    return chunk
  }

  /// Lets `require` load modules from `directory`.
  package func allowModules(in directory: String) {
    let resolved = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
    if !moduleDirectories.contains(resolved) { moduleDirectories.append(resolved) }
  }

  /// The module `name` (dotted, or with slashes) from the first allowed folder that has
  /// it, as `name.lua` or `name/init.lua`; never a file outside those folders, through
  /// `..` or a link.
  package func module(named name: String) throws(LuaHostError) -> LuaModuleSource {
    let base = name.replacingOccurrences(of: ".", with: "/")
    for directory in moduleDirectories {
      for relative in [base + ".lua", base + "/init.lua"] {
        if let source = try module(relative, in: directory) { return source }
      }
    }
    let searched = moduleDirectories.isEmpty ? "(no rule directories)" : moduleDirectories.joined(separator: ", ")
    throw LuaHostError("require: module '\(name)' not found in the rule directories: \(searched)")
  }

  /// The module at `relative` under `directory`, if it is there and inside it.
  private func module(_ relative: String, in directory: String) throws(LuaHostError) -> LuaModuleSource? {
    let candidate = URL(fileURLWithPath: directory).appendingPathComponent(relative)
    let resolved = candidate.resolvingSymlinksInPath().path
    guard resolved.hasPrefix(directory + "/"), FileManager.default.fileExists(atPath: resolved) else { return nil }
    if let problem = Self.sizeProblem(atPath: resolved) {
      throw LuaHostError("require: '\(candidate.path)': \(problem)")
    }
    // Checked again once open: a link swapped after the check above leads nowhere else.
    guard
      case .success(let contents) = FileContents.bytes(
        atPath: resolved, maximumBytes: Self.maximumSourceBytes, confinedTo: [directory])
    else { return nil }
    if let problem = Self.sizeProblem(ofBytes: contents.count) {
      throw LuaHostError("require: '\(candidate.path)': \(problem)")
    }
    return LuaModuleSource(source: Array(contents), path: candidate.path)
  }
}

extension RuleSourceFiles {
  /// Why the file at `path` is too large to read, told before reading it; nil if it is not.
  static func sizeProblem(atPath path: String) -> String? {
    sizeProblem(ofBytes: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
  }

  /// Why `size` bytes of source are too many, or nil. A special file (a device, a pipe)
  /// has no size to check first: what was read of it is checked.
  static func sizeProblem(ofBytes size: Int) -> String? {
    guard size > maximumSourceBytes else { return nil }
    return "the file is \(size) bytes; droprules reads at most \(maximumSourceBytes) bytes of Lua source "
      + "per file (keep generated data in a scenario or in JSON, not in Lua)"
  }
}

@available(*, unavailable) extension RuleSourceFiles: Sendable {}
