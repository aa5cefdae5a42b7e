/// A scenario that cannot be loaded: the file, where in it, and what was expected.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
  public var file: String
  /// A JSON path such as `board.targets[1].frame`, empty for the whole file.
  public var path: String
  public var message: String
  /// Where in the text, for text that is not valid JSON (1-based; the column counts
  /// characters).
  public var line: Int?
  public var column: Int?

  public init(file: String, path: String, message: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.path = path
    self.message = message
    self.line = line
    self.column = column
  }

  /// `file: path: message`, or `file:line:column: message` for text that is not JSON,
  /// the form editors and terminals link to the place.
  public var description: String {
    if let line, let column { return "\(file):\(line):\(column): \(message)" }
    return path.isEmpty ? "\(file): \(message)" : "\(file): \(path): \(message)"
  }
}
