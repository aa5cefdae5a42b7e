import DropRules
import DropRulesModel
import DropRulesTesting
import DropRulesTools

/// The library's messages name the setting that raises a limit (`raise it with
/// LuaLimits.maxInstructions`), which an app embedding it can change; what the command
/// prints for people names the flag that sets it (`raise it with --max-instructions`).
/// Machine formats (JSON, JUnit) keep the library's words and its typed limit.
enum LimitFlags {
  /// Each setting the library's messages name, and the flag that sets it here.
  static let flags: [(setting: String, flag: String)] = [
    (RuleLimit.instructions.setting, "--max-instructions"),
    (RuleLimit.memory.setting, "--max-memory"),
    (RuleLimit.time.setting, "--max-time"),
    (ScenarioDecoder.maximumBytesSetting, "--max-scenario-bytes"),
    (RuleFileRefusal.trustedRootsSetting, "--rules"),
    (DecisionTableBuilder.maximumCellsSetting, "--max-cells"),
    (FuzzReportText.maximumSecondsSetting, "--max-seconds"),
  ]

  /// `text` with each setting the library names replaced by its flag.
  ///
  /// One pass over the UTF-8 bytes: Foundation's `contains` and `replacingOccurrences`
  /// go through UTF-16 on Linux, and spent 1.9 s on a report of the 6 MB one rule call
  /// may print.
  static func naming(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var named: [UInt8] = []
    var copied = 0
    var index = 0
    while index < bytes.count {
      guard let (setting, flag) = settings.first(where: { bytes.hasPrefix($0.setting, at: index) }) else {
        index += 1
        continue
      }
      if named.isEmpty { named.reserveCapacity(bytes.count) }
      named += bytes[copied..<index]
      named += flag
      index += setting.count
      copied = index
    }
    guard copied > 0 else { return text }
    named += bytes[copied...]
    return String(decoding: named, as: UTF8.self)
  }

  private static let settings = flags.map { (setting: Array($0.setting.utf8), flag: Array($0.flag.utf8)) }
}

extension [UInt8] {
  /// Whether `prefix` starts at `index`.
  fileprivate func hasPrefix(_ prefix: [UInt8], at index: Int) -> Bool {
    guard self[index] == prefix[0], count - index >= prefix.count else { return false }
    return self[index..<index + prefix.count].elementsEqual(prefix)
  }
}
