/// The last pointer step's built-in sentence and everything it was made from: the steps
/// of a drag over one target with one proposal say the same thing, and making the
/// sentence looks names up on the board (a move answered by `droprules serve` spent
/// 3,300 instructions of its 48,000 on it).
///
/// Kept honest by what it keys on: the engine's read version, which moves on every
/// change to the board or the drag (so a renamed target or a new drag's item names are
/// never served stale), and every field of the step the sentence reads.
struct SentenceMemo {
  private struct Key: Equatable {
    var version: Int
    var target: TargetID?
    var proposal: Proposal?
    var over: ItemID?
    var edge: ItemEdge?
    var index: Int?
    var offBoard: Bool
  }

  private var key: Key?
  private var sentence: String?

  /// The sentence of `step` at `version`, made by `make` unless the last step's fits.
  /// Steps that open containers or end the drag are made every time: they are rare.
  mutating func sentence(of step: TraceStep, at version: Int, make: () -> String?) -> String? {
    guard case .step(let action) = step.action, !action.endsDrag, step.springLoaded.isEmpty else {
      return make()
    }
    let stepKey = Key(
      version: version, target: step.target, proposal: step.proposal, over: step.over, edge: step.edge,
      index: step.index, offBoard: step.pointer == nil)
    if stepKey == key { return sentence }
    key = stepKey
    sentence = make()
    return sentence
  }
}
