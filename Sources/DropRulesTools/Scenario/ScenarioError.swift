import DropRules

/// A scenario that cannot be loaded: the file, where in it, and what was expected.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
  /// The scenario file, or the test file whose `scenario{}` it is.
  public var file: String
  /// A JSON path such as `board.targets[1].frame`, empty for the whole file.
  public var path: String
  /// What is wrong, without the file or the path.
  public var message: String
  /// Where in the text (1-based; the column counts characters): of the error, for text
  /// that is not valid JSON; else of the value at `path`, or of the object that lacks a
  /// missing key. Nil for scenarios that are not read from text (Lua tests).
  public var line: Int?
  /// The column in ``line``; nil when the line is.
  public var column: Int?
  /// The size limit in bytes the file is over, when it was refused for its size (raise
  /// ``ScenarioDecoder/maximumBytes``); nil for any other error.
  public var sizeLimit: Int?
  /// The target or item the error names that is not on the board; nil for any other
  /// error. The host protocol answers these as it answers a drag call naming what is
  /// not there.
  public var notOnBoard: BoardSubject?

  /// What on a board an error names.
  public enum BoardSubject: Equatable, Sendable {
    case target(String)
    case item(String)
  }

  package init(file: String, path: String, message: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  /// `file:line:column: message (at $.path)` where the place in the text is known (the
  /// form editors and terminals link to), else `file: path: message`.
  public var description: String {
    if let line, let column {
      return "\(file):\(line):\(column): \(message)" + (path.isEmpty ? "" : " (at $.\(path))")
    }
    return path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
  }
}
