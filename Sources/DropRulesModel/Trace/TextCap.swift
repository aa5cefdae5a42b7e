/// The one cut for rule-made text the host keeps or sends: announcements, preview fields,
/// the description of a handler's answer, names echoed in errors, messages.
///
/// A cap counts Unicode scalars, never `Character`s: one character can be megabytes
/// (`"a"` and a million U+0301 combining marks), so `String.prefix(60)` could keep them
/// all. A cut text keeps `limit - 1` scalars and ends in `…`, so it is at most `limit`
/// scalars, `4 × limit` bytes, whatever the rule made.
///
/// ```swift
/// TextCap.name.cut(String(repeating: "x", count: 1_000))  // 59 "x" and "…"
/// ```
public struct TextCap: Hashable, Sendable {
  /// The most Unicode scalars a cut text keeps, `…` included.
  public let limit: Int

  /// A cap of `limit` Unicode scalars (at least 1: the `…`).
  public init(scalars limit: Int) {
    self.limit = max(1, limit)
  }

  /// An announcement, or a title, subtitle or badge of a preview: 200 scalars.
  public static let presentation = TextCap(scalars: 200)
  /// A name: an item or target in an announcement; an id, key or method echoed in an
  /// error; the description of a handler's answer: 60 scalars.
  public static let name = TextCap(scalars: 60)
  /// An error message or a property's reason: 8,192 scalars, as the sandbox cuts a
  /// rule's error message to 8 KiB.
  public static let message = TextCap(scalars: 8_192)

  /// `text` when it fits, else its first `limit - 1` scalars and `…`.
  public func cut(_ text: String) -> String {
    guard let end = cutIndex(in: text) else { return text }
    // The scalar view, not the string: a string's subscript rounds down to a character,
    // which would give back the megabyte character.
    return String(String.UnicodeScalarView(text.unicodeScalars[..<end])) + "…"
  }

  /// Whether `text` would be cut.
  public func cuts(_ text: String) -> Bool { cutIndex(in: text) != nil }

  /// Where a cut of `text` ends, or nil when it fits; walks at most `limit + 1` scalars.
  private func cutIndex(in text: String) -> String.UnicodeScalarView.Index? {
    // A scalar is at least a byte, and a native string knows its byte count: the texts
    // that fit, nearly all of them, cost no walk.
    if text.utf8.count <= limit { return nil }
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    var end = index
    for counted in 0...limit {
      if index == scalars.endIndex { return nil }
      if counted == limit - 1 { end = index }
      scalars.formIndex(after: &index)
    }
    return end
  }
}

extension String {
  /// This text cut by `cap`: see ``TextCap``.
  public func capped(_ cap: TextCap) -> String { cap.cut(self) }
}
