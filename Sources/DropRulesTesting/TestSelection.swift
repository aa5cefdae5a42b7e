/// Which tests a run runs, by their `file: name`: `--filter`, `--filter-out`, and
/// busted's tags (`#slow` in a test's name or in its describe blocks' names) with
/// `--tags` and `--exclude-tags`.
public struct TestSelection: Sendable, Equatable {
  /// Only tests whose `file: name` contains this text run.
  public var filter: String?
  /// Tests whose `file: name` contains any of these texts do not run.
  public var excluded: [String] = []
  /// When not empty, only tests tagged with one of these run (`slow` for `#slow`).
  public var tags: [String] = []
  /// Tests tagged with any of these do not run.
  public var excludedTags: [String] = []

  /// Every test.
  public init(filter: String? = nil) { self.filter = filter }

  /// Whether the test `name` of `file` runs.
  public func selects(_ file: String, _ name: String) -> Bool {
    let subject = "\(file): \(name)"
    if excluded.contains(where: { !$0.isEmpty && subject.contains($0) }) { return false }
    if let filter, !filter.isEmpty, !subject.contains(filter) { return false }
    guard !tags.isEmpty || !excludedTags.isEmpty else { return true }
    let tagged = Self.tags(in: name)
    if excludedTags.contains(where: tagged.contains) { return false }
    return tags.isEmpty || tags.contains(where: tagged.contains)
  }

  /// The tags of a test's name: each `#` followed by letters, digits, `_` or `-`, as
  /// busted reads them (`"saves #slow #db"` has `slow` and `db`).
  public static func tags(in name: String) -> Set<String> {
    var found: Set<String> = []
    var current: String?
    for character in name {
      if character == "#" {
        if let tag = current, !tag.isEmpty { found.insert(tag) }
        current = ""
      } else if current != nil, character.isASCII, character.isLetter || character.isNumber || "_-".contains(character)
      {
        current?.append(character)
      } else {
        if let tag = current, !tag.isEmpty { found.insert(tag) }
        current = nil
      }
    }
    if let tag = current, !tag.isEmpty { found.insert(tag) }
    return found
  }
}
