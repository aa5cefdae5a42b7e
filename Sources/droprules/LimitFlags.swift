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
  static func naming(_ text: String) -> String {
    var text = text
    for (setting, flag) in flags where text.contains(setting) {
      text = text.replacingOccurrences(of: setting, with: flag)
    }
    return text
  }
}
