/// JSON text that ``JSONValue/parse(_:)-(String)`` refused: what was wrong and where.
///
/// Lines and columns count from 1; a column counts characters (Unicode scalars), not
/// bytes, so it matches what an editor shows.
public struct JSONParseError: Error, Equatable, CustomStringConvertible {
  /// The byte offset of the problem in the text.
  public var offset: Int
  /// The line of the problem, counted from 1.
  public var line: Int
  /// The column, counted in characters from 1.
  public var column: Int
  /// What was wrong, for a person: `expected ',' or '}' after an object field`.
  public var message: String

  /// An error at a known place in the text.
  public init(offset: Int, line: Int, column: Int, message: String) {
    self.offset = offset
    self.line = line
    self.column = column
    self.message = message
  }

  /// `line 3, column 14: expected ',' or '}' after an object member, found ']'`.
  public var description: String { "line \(line), column \(column): \(message)" }

  /// An error at `offset` of `bytes`, its line and column worked out from the bytes
  /// before it (done only when something is wrong, so parsing never counts lines).
  init(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ message: String) {
    var line = 1
    var column = 1
    // A byte order mark is no character an editor shows: columns start after it.
    let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    for byte in bytes[min(start, offset)..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new character
        column += 1
      }
    }
    self.init(offset: offset, line: line, column: column, message: message)
  }
}
