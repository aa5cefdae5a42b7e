import DropRules

/// A drag to replay: rules, a board, a drag session, the steps and what to expect.
public struct Scenario: Sendable {
  /// What the scenario shows, in a sentence.
  public var name: String
  /// The scenario file, when it came from one.
  public var file: String?
  /// Rule file paths, resolved against the scenario file's folder. ``ScenarioRunner``
  /// loads only those in that folder tree or under its trusted roots.
  public var rules: [String]
  /// Custom types the scenario declares, with the types each conforms to.
  public var types: [(id: TypeIdentifier, conformsTo: [TypeIdentifier])]
  /// The board the drag starts on.
  public var board: Board
  /// What is dragged, and how.
  public var drag: DragRequest
  /// The steps of the drag, in order.
  public var steps: [DragStep]
  /// What the scenario expects, if it is a test.
  public var expect: ScenarioExpectation?
}

/// One step of a scenario's drag.
/// What a scenario expects; each part is checked only when given.
public struct ScenarioExpectation: Hashable, Sendable {
  /// The negotiated proposal after each pointer, outside or modifier step.
  public var proposals: [Proposal]?
  /// How the drag ends.
  public var outcome: DropOutcome?
  /// Item ids per target after the drag; `*` matches any one item (a fresh copy).
  public var board: [TargetID: [String]]?
  /// Data keys per target after the drag; keys not named are not checked, and null
  /// expects the key to be absent.
  public var data: [TargetID: [String: JSONValue]]?
  /// How many rule errors the drag reports.
  public var errors: Int?

  /// A scenario; without steps it is cancelled at once.
  public init(
    proposals: [Proposal]? = nil, outcome: DropOutcome? = nil, board: [TargetID: [String]]? = nil,
    data: [TargetID: [String: JSONValue]]? = nil, errors: Int? = nil
  ) {
    self.proposals = proposals
    self.outcome = outcome
    self.board = board
    self.data = data
    self.errors = errors
  }
}
