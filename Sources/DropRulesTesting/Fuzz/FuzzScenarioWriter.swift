import DropRules
import DropRulesTools
import Foundation

/// Writes a fuzz finding as a scenario folder `droprules run` replays: the scenario file
/// and copies of the rule files' folders (their Lua files and the modules under them),
/// since a scenario loads rules from its own folder only.
///
/// Only regular files inside each rule folder are copied, a file at a time, under a
/// size cap: a named pipe would block the copy, and a link could lead outside.
struct FuzzScenarioWriter {
  let scenario: Scenario
  let extraRules: [String]

  /// Why a finding could not be written.
  struct WriteError: Error, CustomStringConvertible {
    var description: String
  }

  /// The most bytes of Lua files copied from one rule folder.
  static let maximumCopiedBytes = 64 * 1024 * 1024
  /// How deep, and how many entries, a rule folder is walked for its modules.
  static let maximumDepth = 4
  static let maximumEntries = 5_000

  /// Writes `finding` into a new folder under `directory`; returns the scenario's path.
  func write(_ finding: Fuzzer.Finding, seed: UInt64, into directory: String) throws(WriteError) -> String {
    let folder = newFolder(
      in: directory,
      named: "\(Self.slug(baseName, limit: 60))-\(Self.slug(finding.failure.property, limit: 60))-seed-\(seed)")
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw WriteError(description: "cannot make the folder \(folder): \(error.localizedDescription)")
    }
    // Each rule folder goes into a subfolder of its own: two rule files of one name, from
    // two folders, stay two, and each finds its modules beside it.
    var folders: [String: String] = [:]
    var rules: [String] = []
    for path in scenario.rules + extraRules {
      let source = (path as NSString).deletingLastPathComponent
      let key = RealPath.of(source.isEmpty ? "." : source) ?? source
      let copy: String
      if let known = folders[key] {
        copy = known
      } else {
        copy = "rules-\(folders.count + 1)"
        folders[key] = copy
        try copyLuaFiles(from: key, to: (folder as NSString).appendingPathComponent(copy))
      }
      let name = copy + "/" + (path as NSString).lastPathComponent
      if !rules.contains(name) { rules.append(name) }
    }
    let name =
      "fuzz: \(finding.failure.property): \(finding.failure.detail) (seed \(seed), drag \(finding.drag), shrunk from "
      + "\(finding.original.steps.count) steps to \(finding.shrunk.steps.count))"
    let json = ScenarioWriter.json(
      name: name, rules: rules, types: scenario.types, board: finding.board, drag: finding.shrunk.request,
      steps: finding.shrunk.steps)
    let file = (folder as NSString).appendingPathComponent("failure.scenario.json")
    do {
      try Data((json.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: file))
    } catch {
      throw WriteError(description: "cannot write \(file): \(error.localizedDescription)")
    }
    return file
  }

  private var baseName: String {
    let name = ((scenario.file ?? scenario.name) as NSString).lastPathComponent
    return name.hasSuffix(".scenario.json") ? String(name.dropLast(".scenario.json".count)) : name
  }

  /// Letters and digits kept, the rest a dash, at most `limit` characters, never empty and
  /// never starting with a dot or a dash (a hidden folder, or one read as an option).
  static func slug(_ text: String, limit: Int) -> String {
    var slug = String(text.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }.prefix(limit))
    while slug.hasPrefix("-") { slug.removeFirst() }
    return slug.isEmpty ? "scenario" : slug
  }

  private func newFolder(in directory: String, named name: String) -> String {
    var folder = (directory as NSString).appendingPathComponent(name)
    var suffix = 1
    while FileManager.default.fileExists(atPath: folder) {
      suffix += 1
      folder = (directory as NSString).appendingPathComponent("\(name)-\(suffix)")
    }
    return folder
  }

  /// Copies the regular `*.lua` files of `source` and its folders (no tests, no links,
  /// no other kinds of file) into `destination`, under ``maximumCopiedBytes`` in all.
  private func copyLuaFiles(from source: String, to destination: String) throws(WriteError) {
    let manager = FileManager.default
    var copied = 0
    // A rule file in a big folder (a home folder) must not walk all of it: four levels of
    // modules and 5,000 entries are plenty.
    var relatives: [String] = []
    if let walk = manager.enumerator(atPath: source) {
      while let relative = walk.nextObject() as? String, relatives.count < Self.maximumEntries {
        if walk.level > Self.maximumDepth { walk.skipDescendants() }
        relatives.append(relative)
      }
    }
    for relative in relatives.sorted() where relative.hasSuffix(".lua") && !FileDiscovery.isLuaTestFile(relative) {
      let path = (source as NSString).appendingPathComponent(relative)
      // Read through the confined reader: a regular file that lies inside the folder once
      // opened (a link out, a pipe or a device is skipped).
      guard
        case .success(let bytes) = FileContents.bytes(
          atPath: path, maximumBytes: Self.maximumCopiedBytes - copied, confinedTo: [source]),
        copied + bytes.count <= Self.maximumCopiedBytes
      else { continue }
      let target = (destination as NSString).appendingPathComponent(relative)
      do {
        try manager.createDirectory(
          atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: target))
      } catch {
        throw WriteError(description: "cannot copy \(relative) into \(destination): \(error.localizedDescription)")
      }
      copied += bytes.count
    }
  }
}
