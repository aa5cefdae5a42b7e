import Foundation

/// Finds where in JSON text the value at a path such as `board.targets[1].frame` starts,
/// so that an error found after parsing (a wrong type, a missing key) can name a line
/// and a column. Paths count list elements from 0, as JSON tools do.
///
/// It runs only for an error, on text that already parsed: it skips values without
/// building them and never fails on the text, only on a path the text does not have,
/// which it follows as far as it goes.
package struct JSONLocator {
  private let bytes: [UInt8]
  private var offset = 0

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// The line and column (1-based; the column counts characters) where the value at
  /// `path` starts, or where the deepest part of `path` that the text has starts (the
  /// object that lacks a missing key). Nil when the text is not there at all.
  package static func lineAndColumn(of path: String, in bytes: [UInt8]) -> (line: Int, column: Int)? {
    var locator = JSONLocator(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { locator.offset = 3 }
    locator.skipWhitespace()
    guard locator.offset < bytes.count else { return nil }
    let found = locator.find(Substring(path))
    let error = bytes.withUnsafeBufferPointer { JSONParseError(at: found, in: $0, "") }
    return (error.line, error.column)
  }

  // MARK: Following the path

  /// At the start of a value: the offset of the value at `path` inside it.
  private mutating func find(_ path: Substring) -> Int {
    let start = offset
    guard !path.isEmpty, offset < bytes.count else { return start }
    switch bytes[offset] {
    case UInt8(ascii: "{"): return findMember(path) ?? start
    case UInt8(ascii: "["): return findElement(path) ?? start
    default: return start
    }
  }

  /// Of the object's keys that `path` starts with, the longest (a key may hold dots).
  private mutating func findMember(_ path: Substring) -> Int? {
    offset += 1
    var best: (key: String, value: Int)?
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { break }
      let key = readKey()
      skipWhitespace()
      offset += 1  // ':'
      skipWhitespace()
      let valueStart = offset
      let matches = path == key || path.hasPrefix(key + ".") || path.hasPrefix(key + "[")
      if matches, key.count > (best?.key.count ?? -1) { best = (key, valueStart) }
      skipValue()
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ",") else { break }
      offset += 1
    }
    guard let best else { return nil }
    offset = best.value
    var rest = path.dropFirst(best.key.count)
    if rest.first == "." { rest = rest.dropFirst() }
    return find(rest)
  }

  /// `[n]` at the start of `path`: element n.
  private mutating func findElement(_ path: Substring) -> Int? {
    guard path.first == "[", let close = path.firstIndex(of: "]"),
      let wanted = Int(path[path.index(after: path.startIndex)..<close]), wanted >= 0
    else { return nil }
    offset += 1
    var index = 0
    while true {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] != UInt8(ascii: "]") else { return nil }
      if index == wanted {
        var rest = path[path.index(after: close)...]
        if rest.first == "." { rest = rest.dropFirst() }
        return find(rest)
      }
      skipValue()
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: ",") else { return nil }
      offset += 1
      index += 1
    }
  }

  // MARK: Skipping valid JSON

  /// A key, unescaped by the strict parser when it holds escapes.
  private mutating func readKey() -> String {
    let start = offset
    skipString()
    let quoted = bytes[start..<offset]
    if !quoted.contains(UInt8(ascii: "\\")) { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
    if case .string(let key)? = try? JSONValue.parse(Data(quoted)) { return key }
    return ""
  }

  private mutating func skipString() {
    offset += 1
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: "\\"): offset += 2
      case UInt8(ascii: "\""):
        offset += 1
        return
      default: offset += 1
      }
    }
  }

  /// Skips one value; strings inside it are skipped whole, so their brackets do not count.
  private mutating func skipValue() {
    guard offset < bytes.count else { return }
    switch bytes[offset] {
    case UInt8(ascii: "\""): skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      while offset < bytes.count {
        switch bytes[offset] {
        case UInt8(ascii: "\""):
          skipString()
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            offset += 1
            return
          }
        default: break
        }
        offset += 1
      }
    default:  // a number or a literal
      while offset < bytes.count, !Self.endsScalar(bytes[offset]) { offset += 1 }
    }
  }

  private static func endsScalar(_ byte: UInt8) -> Bool {
    [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(byte)
  }

  private mutating func skipWhitespace() {
    while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
  }
}
