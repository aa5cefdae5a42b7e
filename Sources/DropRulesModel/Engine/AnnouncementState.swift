/// What the engine keeps to say a drag: whether any rule has `announce`, what the last
/// announcement was about (so a step that changes nothing says nothing), the names the
/// dragged items had when it began, and the last built-in sentence.
struct AnnouncementState {
  /// Whether any loaded rule has `announce`: when none does, a step asks nothing more.
  var anyRuleAnnounces = false
  /// The target, proposal and index the last announcement of the drag was about.
  private var last: (target: Int?, proposal: Proposal?, index: Int?) = (nil, nil, nil)
  /// The names the drag's items had when it began.
  private(set) var itemNames: [ItemID: String] = [:]
  /// The last pointer step's sentence, made again only when what it says changed.
  var sentenceMemo = SentenceMemo()

  /// A drag begins with these items' names.
  mutating func begin(naming names: [ItemID: String]) {
    last = (nil, nil, nil)
    itemNames = names
    sentenceMemo = SentenceMemo()
  }

  /// What a step that negotiated `proposal` at `index` over `current` gives a rule to say:
  /// entering a target, a changed proposal or place, or leaving the last target for none;
  /// nil when it says what the last announcement said.
  mutating func event(over current: Int?, proposal: Proposal, index: Int?) -> (AnnouncementEvent, Int)? {
    let said = last
    last = (current, proposal, index)
    if let current {
      if said.target != current { return (.entered, current) }
      if said.proposal != proposal || said.index != index { return (.proposal, current) }
      return nil
    }
    return said.target.map { (.exited, $0) }
  }
}
