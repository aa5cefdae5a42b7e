import DropRulesLua
import Foundation

/// Files for runtime tests, read by the test: the runtime reads none itself (the rule
/// binding's `RuleSourceFiles` does it for droprules).
extension LuaRuntime {
  /// Compiles the file at `path`, named by it in errors.
  package func loadFile(atPath path: String, environment: LuaReference?) throws -> LuaReference {
    let contents = try Data(contentsOf: URL(fileURLWithPath: path))
    return try load(source: contents, chunkName: "@" + path, environment: environment)
  }

  /// Lets `require` load `name.lua` (dots as folders) from `directory`.
  package func allowModules(in directory: String) {
    moduleReader = { name throws(LuaHostError) in
      let path = directory + "/" + name.replacingOccurrences(of: ".", with: "/") + ".lua"
      guard let contents = FileManager.default.contents(atPath: path) else {
        throw LuaHostError("require: module '\(name)' not found in \(directory)")
      }
      return LuaModuleSource(source: Array(contents), path: path)
    }
  }
}
