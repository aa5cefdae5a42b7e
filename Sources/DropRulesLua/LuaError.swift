/// An error raised by Lua code, or by the runtime's limits, copied out of Lua at once.
public struct LuaError: Error, Equatable, CustomStringConvertible {
  /// What went wrong: a compile error, a runtime error, a limit reached or refused input.
  public enum Kind: Equatable, Sendable {
    /// The chunk did not compile.
    case syntax
    /// The code raised an error while running.
    case runtime
    /// The call ran more VM instructions than its budget allows.
    case instructionLimit(Int)
    /// The runtime would have grown past its memory cap.
    case memoryLimit(Int)
    /// The call ran past its wall-clock deadline, in milliseconds.
    case timeLimit(Int)
    /// The input is not something the runtime will load (bytecode, unreadable file).
    case refused
  }

  /// What went wrong, and for a limit, the limit that was reached.
  public var kind: Kind
  /// The message without its `file:line:` prefix.
  public var message: String
  /// The rule file (or module) the error points into, when known.
  public var file: String?
  /// The line in ``file`` the error points at, when known.
  public var line: Int?
  /// Lua's traceback at the point of the error, or empty.
  public var traceback: String

  package init(kind: Kind, message: String, file: String? = nil, line: Int? = nil, traceback: String = "") {
    self.kind = kind
    self.message = message
    self.file = file
    self.line = line
    self.traceback = traceback
  }

  /// `file:line: message`, the form editors and rule authors read.
  public var description: String {
    switch (file, line) {
    case (let file?, let line?): "\(file):\(line): \(message)"
    case (let file?, nil): "\(file): \(message)"
    default: message
    }
  }
}

extension LuaError {
  /// Builds an error from a raw Lua message (`chunk:line: text`) and traceback.
  ///
  /// When the message carries no position (an `error(value, 0)` or a non-string error
  /// value), the first traceback frame that lies in a user file gives it.
  init(kind: Kind, rawMessage: String, traceback: String = "") {
    let (file, line, text) = Self.splitPosition(rawMessage)
    self.init(kind: kind, message: text, file: file, line: line, traceback: traceback)
    if self.file == nil, let frame = Self.firstUserFrame(in: traceback) {
      self.file = frame.file
      self.line = frame.line
    }
  }

  /// Splits `path/to/file.lua:12: message` into its parts; internal chunks (named in
  /// brackets) and messages without a position give no file.
  static func splitPosition(_ raw: String) -> (String?, Int?, String) {
    guard let position = parsePosition(raw) else { return (nil, nil, raw) }
    return (position.file, position.line, position.rest)
  }

  private static func parsePosition(_ text: Substring) -> (file: String, line: Int, rest: String)? {
    var searchStart = text.startIndex
    while let colon = text[searchStart...].firstIndex(of: ":") {
      let afterColon = text.index(after: colon)
      let digits = text[afterColon...].prefix(while: \.isNumber)
      if !digits.isEmpty, let line = Int(digits) {
        let afterDigits = digits.endIndex
        if afterDigits == text.endIndex || text[afterDigits] == ":" {
          let file = String(text[text.startIndex..<colon])
          guard !file.isEmpty, !file.hasPrefix("["), !file.contains("\n") else { return nil }
          var rest = text[afterDigits...].dropFirst()
          if rest.first == " " { rest = rest.dropFirst() }
          return (file, line, String(rest))
        }
      }
      searchStart = afterColon
    }
    return nil
  }

  private static func parsePosition(_ text: String) -> (file: String, line: Int, rest: String)? {
    parsePosition(Substring(text))
  }

  static func firstUserFrame(in traceback: String) -> (file: String, line: Int)? {
    for frame in traceback.split(separator: "\n").dropFirst() {
      let trimmed = frame.drop(while: { $0 == " " || $0 == "\t" })
      if let position = parsePosition(trimmed) {
        return (position.file, position.line)
      }
    }
    return nil
  }
}
