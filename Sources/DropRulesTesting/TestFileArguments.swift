import DropRules
import DropRulesTools
import Foundation

extension RuleTestRunner {
  /// Why each file named directly in `paths` is not something `droprules test` runs,
  /// such as a rule file: running it would load it as a test file, find no test and
  /// pass. Each message names the test file to run instead, when there is one.
  public static func notTestFiles(_ paths: [String]) -> [String] {
    paths.compactMap { path in
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
        !FileDiscovery.isTestFile(path)
      else { return nil }
      var message = "\(path): not a test file (tests are *_test.lua, *_spec.lua and *.scenario.json files)"
      if path.hasSuffix(".lua") {
        let testFile = String(path.dropLast(".lua".count)) + "_test.lua"
        message +=
          FileManager.default.fileExists(atPath: testFile)
          ? "; its tests are in \(testFile)" : "; check a rule file with droprules check \(path)"
      }
      return message
    }
  }
}
