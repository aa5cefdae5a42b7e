/// Puts JSON inside an HTML `<script type="application/json">` element safely.
///
/// The HTML parser ends a script element at the first `</script` whatever the JSON
/// means, and `<!--` can change how it reads on; a rule that prints `</script><img
/// onerror=...>` must stay text. So `<`, `>` and `&` are written as JSON's `\u003c`,
/// `\u003e`, `\u0026`: they can only occur inside JSON strings, where the escape reads
/// back as the same character with `JSON.parse`. U+2028 and U+2029 are escaped too, so
/// the text is also a valid JavaScript literal.
enum ScriptEmbedding {
  /// JSON text made safe to place between `<script type="application/json">` tags.
  static func json(_ text: String) -> String {
    var output = ""
    output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "<": output += "\\u003c"
      case ">": output += "\\u003e"
      case "&": output += "\\u0026"
      case "\u{2028}": output += "\\u2028"
      case "\u{2029}": output += "\\u2029"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
