/// The last pointer step's built-in sentence and what it was made from: the steps of a
/// drag over one target with one proposal say the same thing, and making the sentence
/// looks names up on the board (a move answered by `droprules serve` spent 3,300
/// instructions of its 48,000 on it).
///
/// Kept honest by what it keys on: the engine's read version, which moves on every
/// change to the board or the drag (so a renamed target is never named by its old
/// name), and the whole ``PointerSentence``, which is all the sentence reads of its step.
/// The engine starts a new memo when a drag's item names change.
struct SentenceMemo {
  private var version: Int?
  private var input: PointerSentence?
  private var sentence: String?

  /// The sentence of `step` at `version`: the last one when it was made from the same
  /// input, else made by `make`. Steps that end the drag are made every time.
  mutating func sentence(of step: TraceStep, at version: Int, make: () -> String?) -> String? {
    guard case .step(let action) = step.action, !action.endsDrag else { return make() }
    let stepInput = PointerSentence(of: step)
    if version == self.version, stepInput == input { return sentence }
    self.version = version
    input = stepInput
    sentence = make()
    return sentence
  }
}
