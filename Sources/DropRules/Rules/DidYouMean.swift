/// Suggests the closest name to a misspelt one, as compilers do.
package enum DidYouMean {
  package static func suggestion(for word: String, among candidates: [String]) -> String? {
    // The distance is at least the difference in length, so a candidate whose length is
    // too far off can never be suggested: skipping it keeps a 16 MiB name from costing
    // minutes of edit distance.
    let length = word.count
    let near = candidates.filter { abs($0.count - length) <= max(2, $0.count / 3) }
    let lowered = word.lowercased()
    let scored = near.map { ($0, distance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    // Every character changed is no typo: `b` does not suggest `a`.
    // Cut as any name in an error is (TextCap): a candidate can be as long as the word.
    return best.1 <= max(2, best.0.count / 3) && best.1 < length ? best.0.capped(.name) : nil
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
