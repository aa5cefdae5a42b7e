import DropRules
import DropRulesModel

/// A drag to replay: rules, a board, a drag request, the steps and what to expect.
public struct Scenario: Sendable {
  /// The name reports show: the file's `name`, or else the file's path.
  public var name: String
  /// The scenario file, when it came from one.
  public var file: String?
  /// Rule file paths, resolved against the scenario file's folder. ``ScenarioRunner``
  /// loads only those in that folder tree or under its trusted roots.
  public var rules: [String]
  /// Types the scenario declares before its rules load, each with the types it conforms to.
  public var types: [(id: TypeIdentifier, conformsTo: [TypeIdentifier])]
  /// The board the drag starts on.
  public var board: Board
  /// The items dragged, the operations allowed and the modifiers held; no items for a
  /// Lua test's scenario, whose drags come from `sim:drag`.
  public var drag: DragRequest
  /// The drag's steps once it began (pointer moves, modifiers, a drop or a cancel), in order.
  public var steps: [DragStep]
  /// What the replay must give; nil when the scenario checks nothing.
  public var expect: ScenarioExpectation?
}

/// What a scenario expects; each part is checked only when given.
public struct ScenarioExpectation: Hashable, Sendable {
  /// The negotiated proposal after each pointer, outside or modifier step.
  public var proposals: [Proposal]?
  /// How the drag must end: performed, cancelled, failed or refused.
  public var outcome: DropOutcome?
  /// Item ids per target after the drag; `*` matches any one item (a fresh copy).
  public var board: [TargetID: [String]]?
  /// Data keys per target after the drag; keys not named are not checked, and null
  /// expects the key to be absent.
  public var data: [TargetID: [String: JSONValue]]?
  /// How many rule errors the drag reports.
  public var errors: Int?
  /// The target under the pointer after each pointer, outside or modifier step (nil
  /// for none), as the trace has it.
  public var targets: [TargetID?]?
  /// The insertion index a drop would get after each such step (nil for none).
  public var indexes: [Int?]?
  /// Every line the rules printed during the drag, in order.
  public var printed: [String]?
  /// The items `canDrag` refused when the drag began.
  public var refused: [ItemID]?

  /// An expectation of the parts given; those left nil are not checked.
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
