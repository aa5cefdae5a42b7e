/// An HTML page with named slots, filled in one pass.
///
/// Filling splits the template at each slot in order, so text put into one slot (a
/// trace that happens to contain a slot's name) is never searched for the next.
struct PageTemplate {
  var text: String

  /// Replaces each `<!-- droprules:NAME -->` marker with its value; a marker with no
  /// value stays out of the page.
  func filled(_ values: [String: String]) -> String {
    var output = ""
    var rest = Substring(text)
    while let start = rest.range(of: "<!-- droprules:") {
      output += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].range(of: " -->") else {
        rest = rest[start.lowerBound...]
        break
      }
      let name = String(rest[start.upperBound..<end.lowerBound])
      output += values[name] ?? ""
      rest = rest[end.upperBound...]
    }
    output += rest
    return output
  }
}

/// The pages' own files, compiled into the binary.
enum WebAssets {
  static let boardStyle = text(PackageResources.board_css)
  static let boardScript = text(PackageResources.board_js)
  static let replayPage = text(PackageResources.replay_html)
  static let replayScript = text(PackageResources.replay_js)
  static let playgroundPage = text(PackageResources.playground_html)
  static let playgroundScript = text(PackageResources.playground_js)
  static let playgroundKeysScript = text(PackageResources.playground_keys_js)

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
