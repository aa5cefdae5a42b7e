/// Which rule file serves each target type: the file whose handlers run for targets of
/// that type, and the only file that may change their data.
///
/// Shared by ``RuleFiles``, which fills it as rules load, and every file's state, which
/// asks it before a write: one file reads another's targets, and never changes them.
/// Files are told apart by their place in load order, so a write compares two integers.
final class TargetTypeOwners {
  /// Who serves what, as a value: what a rule file's worker process is sent.
  struct Table: Codable, Equatable {
    var owners: [String: Int] = [:]
    var paths: [Int: String] = [:]
  }

  private(set) var table = Table()

  init(_ table: Table = Table()) { self.table = table }

  /// Records that the file at `index` in load order, at `path`, has the rule for `type`
  /// (the fallback's key `*` included).
  func record(_ type: String, servedBy index: Int, at path: String) {
    if table.owners[type] == nil { table.owners[type] = index }
    table.paths[index] = path
  }

  /// The place of the file that serves `type`: the one with its rule, else the one with
  /// the fallback; nil when no file serves it.
  func owner(serving type: String) -> Int? {
    table.owners[type] ?? table.owners[RuleSet.fallbackKey]
  }

  /// The path of the file at `index`, for messages.
  func path(of index: Int) -> String? { table.paths[index] }
}

@available(*, unavailable) extension TargetTypeOwners: Sendable {}
