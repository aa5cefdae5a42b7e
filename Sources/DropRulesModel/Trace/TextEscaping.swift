/// Makes text that rules, tests or scenarios supply safe to show among lines droprules
/// writes itself: in a terminal, a log or a report file.
///
/// A rule decides what it prints and what its errors say. Raw, a newline would let it
/// write a line that reads like the host's own (`outcome performed`, `ok 5`), and a
/// terminal escape code could hide or repaint text. Escaped, the same text stays on the
/// line it belongs to and shows every character.
public enum TextEscaping {
  /// Whether `scalar` is shown escaped: C0 controls, DEL, C1 controls, the Unicode line
  /// and paragraph separators, bidirectional overrides and isolates (they reorder what a
  /// reader sees), and U+FFFE and U+FFFF, which XML 1.0 refuses.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFFFE, 0xFFFF: true
    default: false
    }
  }

  /// `text` with each character ``needsEscape(_:)`` names written as a visible escape:
  /// `\n`, `\r`, `\t`, `\0`, else `\u{1B}` with the code point in hex.
  ///
  /// Backslashes are left as they are, so ordinary text (a Lua pattern, a `%q`-quoted
  /// value) reads as written. A printed `\n` then looks like an escaped newline, but
  /// neither starts a line.
  ///
  /// - Parameters:
  ///   - text: what a rule, test or scenario supplied.
  ///   - keepingTabs: tabs stay raw: a tab cannot start a line or move the cursor back,
  ///     and rules align printed columns with them.
  /// - Returns: `text` itself when nothing in it needs an escape.
  public static func visible(_ text: String, keepingTabs: Bool = true) -> String {
    guard text.unicodeScalars.contains(where: { needsEscape($0) && !(keepingTabs && $0 == "\t") }) else {
      return text
    }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar), !(keepingTabs && scalar == "\t") else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }
}
