// Codable is the form in which values cross to a rule file's worker process and back
// (RuleFileWorker in DropRules). A struct's form is its stored properties (synthesized,
// so declared with the type), so that a worker's copy of a board answers every question
// as the host's does; it is not the scenario format, which is for people and lives in
// DropRulesTools. Here: the forms written by hand, and those of the raw-value enums.

extension TypeIdentifier: Codable {
  /// An identifier from its text.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  /// The identifier as its text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension ItemAxis: Codable {}
extension ItemEdge: Codable {}
extension DragOperation: Codable {}
extension Proposal: Codable {}
extension Modifier: Codable {}
extension DropOutcome: Codable {}
extension AnnouncementEvent: Codable {}
extension Handler: Codable {}
extension RuleLimit: Codable {}

extension TypeRegistry: Codable {
  private enum CodingKeys: String, CodingKey { case parents }

  /// The declared graph only: the memo of walked ancestors starts empty.
  public init(from decoder: any Decoder) throws {
    self.init()
    let parents = try decoder.container(keyedBy: CodingKeys.self).decode(
      [String: [TypeIdentifier]].self, forKey: .parents)
    for (type, direct) in parents { declare(TypeIdentifier(type), conformsTo: direct) }
  }

  /// Every known type's direct parents.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(declaredParents, forKey: .parents)
  }
}

extension DragOnlyData: Codable {
  private enum CodingKeys: String, CodingKey { case values }

  /// The keys set, replayed: the bytes they cost are counted again, and there is nothing
  /// to roll back.
  init(from decoder: any Decoder) throws {
    self.init()
    let values = try decoder.container(keyedBy: CodingKeys.self).decode(
      [Int: [String: JSONValue?]].self, forKey: .values)
    for (position, keys) in values.sorted(by: { $0.key < $1.key }) {
      for (key, value) in keys.sorted(by: { $0.key < $1.key }) { set(key, to: value, on: position) }
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(values, forKey: .values)
  }
}
