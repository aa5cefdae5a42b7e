import Foundation

/// Writing to the terminal.
enum Console {
  /// Colour only when stdout is a terminal and NO_COLOR is not set.
  static var usesColor: Bool {
    isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  }

  static func error(_ message: String) {
    FileHandle.standardError.write(Data(("error: " + message + "\n").utf8))
  }

  static func warning(_ message: String) {
    FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
  }
}
