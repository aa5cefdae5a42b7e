import DropRules

/// A property a fuzz run found broken, and whose promise it was.
public struct FuzzFailure: Hashable, Sendable, CustomStringConvertible {
  /// Whose promise broke: the host's (a droprules bug), what a rule set almost always
  /// means (the rule's), or the author's own `property`.
  public enum Owner: String, Sendable {
    case host
    case rule
    case author
  }

  /// The property's name: `enter and exit pair up`, `no rule error`, or the author's.
  public var property: String
  /// Whose promise it was.
  public var owner: Owner
  /// What happened, for the person who reads the report.
  public var detail: String
  /// The rule file to look at, when there is one.
  public var file: String?
  /// The line in ``file``.
  public var line: Int?

  /// `property: detail (file:line)`.
  public var description: String {
    let place = file.map { " (" + $0 + (line.map { ":\($0)" } ?? "") + ")" } ?? ""
    let whose =
      switch owner {
      case .host: "a droprules bug: "
      case .rule, .author: ""
      }
    return "\(property): \(whose)\(detail)\(place)"
  }
}
