import ArgumentParser
import Foundation

struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Start a rule set: a rule file, its tests, a scenario, and editor and luacheck set-up.",
    discussion: """
      Writes shelf.lua, shelf_test.lua, move-a-book.scenario.json, .luarc.json, \
      .luacheckrc and types/droprules.d.lua into DIR (created if needed). As written they \
      pass droprules check, droprules test and luacheck. Nothing is overwritten.
      Exit status: 0 written; 2 a file exists already (each is named) or could not be written.
      """
  )

  @Argument(help: "The folder of the new rule set.")
  var directory: String = "."

  func validate() throws {
    guard !directory.isEmpty else {
      throw ValidationError("the folder name is empty; give one, or '.' for this folder")
    }
  }

  func run() throws {
    if let problem = Self.problem(with: directory) {
      Console.error(problem)
      throw Exit.loadError
    }
    let files = RuleSetTemplate.files.map { file in
      (path: (directory as NSString).appendingPathComponent(file.path), contents: file.contents)
    }
    let links = files.flatMap { Self.links(onTheWayTo: $0.path, under: directory) }
    guard links.isEmpty else {
      for path in Set(links).sorted() {
        Console.error("\(path) is a symbolic link; droprules init writes nothing through a link")
      }
      throw Exit.loadError
    }
    let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: $0) }
    guard existing.isEmpty else {
      for path in existing { Console.error("\(path) exists already; droprules init overwrites nothing") }
      throw Exit.loadError
    }
    for file in files {
      do {
        try GeneratedFile.write(file.contents, to: file.path)
      } catch {
        Console.error("\(file.path): \(error.localizedDescription)")
        throw Exit.loadError
      }
      print("created \(file.path)")
    }
    let shown = directory == "." ? "" : " " + directory
    print("next: droprules check\(shown) && droprules test\(shown)")
  }

  /// The paths below `directory` on the way to `path` (its folders and itself) that are
  /// symbolic links, dangling or not: writing through one would write outside the folder.
  static func links(onTheWayTo path: String, under directory: String) -> [String] {
    let relative = String(path.dropFirst((directory as NSString).appendingPathComponent("").count))
    var current = directory
    var links: [String] = []
    for component in relative.split(separator: "/") {
      current = (current as NSString).appendingPathComponent(String(component))
      let type = (try? FileManager.default.attributesOfItem(atPath: current))?[.type] as? FileAttributeType
      if type == .typeSymbolicLink { links.append(current) }
    }
    return links
  }

  /// Why `directory` cannot hold the rule set, said before anything is written: a file
  /// or a dangling symbolic link in its place would otherwise fail on the first file with
  /// a message about that file.
  static func problem(with directory: String) -> String? {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
      return isFolder.boolValue ? nil : "\(directory) is a file, not a folder; droprules init writes into a folder"
    }
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory) {
      return "\(directory) is a symbolic link to \(target), which does not exist"
    }
    return nil
  }
}
