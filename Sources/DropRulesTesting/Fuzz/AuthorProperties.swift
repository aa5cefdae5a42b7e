import DropRules
import DropRulesLua
import DropRulesModel

/// The `property(name, check)` declarations of test files, loaded once into each file's
/// own test state, and checked against a board as `droprules fuzz` performs drops.
final class AuthorProperties {
  private struct Property {
    var name: String
    var file: String
    var line: Int?
    var check: LuaReference
    var runtime: LuaRuntime
  }

  private var properties: [Property] = []
  /// The loaded files, kept alive with their states, and the test files whose host
  /// functions the states call (a property may make a `scenario{}`): they hold their
  /// test file unowned, so it must outlive them.
  private var files: [RuleTestFile.LoadedFile] = []
  private var testFiles: [RuleTestFile] = []

  /// The properties of `testFiles`; a file that does not load is an error naming it.
  init(testFiles: [String], limits: LuaLimits) throws(LuaError) {
    for path in testFiles {
      // The file's top level declares its properties; none of its tests runs.
      let testFile = RuleTestFile(file: path, limits: limits, coverage: nil)
      // No test and no hook runs: a property holds of any board, on its own.
      let loaded = try testFile.loadFile()
      self.testFiles.append(testFile)
      files.append(loaded)
      for property in loaded.properties {
        properties.append(
          Property(name: property.name, file: path, line: property.line, check: property.check, runtime: loaded.runtime)
        )
      }
    }
  }

  /// How many properties there are.
  var count: Int { properties.count }

  /// The first property `board` breaks, or nil.
  func check(_ board: Board) -> FuzzFailure? {
    guard !properties.isEmpty else { return nil }
    let snapshot = BoardSnapshot.lua(board)
    for property in properties {
      var detail: String?
      do {
        let results = try property.runtime.call(property.check, [snapshot])
        if case .boolean(false)? = results.first {
          detail = results.count > 1 ? results[1].stringValue ?? "it returned false" : "it returned false"
        }
      } catch {
        detail = error.message
      }
      if let detail {
        // A reason is the test file's text, and may be megabytes: one FAIL line and the
        // JSON report carry it, cut as a rule error's message is (TextCap).
        return FuzzFailure(
          property: property.name.capped(.presentation), owner: .author, detail: detail.capped(.message),
          file: property.file, line: property.line)
      }
    }
    return nil
  }
}
