/// Which rule file serves each target type: the file whose handlers run for targets of
/// that type, and the only file that may change their data.
///
/// Shared by ``RuleFiles``, which fills it as rules load, and every file's state, which
/// asks it before a write: one file reads another's targets, and never changes them.
final class TargetTypeOwners {
  private var files: [String: String] = [:]

  /// Records that `file` has the rule for `type` (the fallback's key `*` included).
  func record(_ type: String, servedBy file: String) {
    files[type] = files[type] ?? file
  }

  /// The file that serves `type`: the one with its rule, else the one with the
  /// fallback; nil when no file serves it.
  func file(serving type: String) -> String? {
    files[type] ?? files[RuleSet.fallbackKey]
  }
}

@available(*, unavailable) extension TargetTypeOwners: Sendable {}
