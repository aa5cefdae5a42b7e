import DropRules
import DropRulesModel
import Foundation

/// Writing to the terminal.
enum Console {
  /// Colour only when stdout is a terminal and NO_COLOR is not set.
  static var usesColor: Bool {
    isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  }

  /// Messages quote paths, names and rule text from input files: escaped, each stays
  /// on its one line. A setting that raises a limit is named by its flag (``LimitFlags``).
  static func error(_ message: String) {
    FileHandle.standardError.write(Data(("error: " + LimitFlags.naming(TextEscaping.visible(message)) + "\n").utf8))
  }

  static func warning(_ message: String) {
    FileHandle.standardError.write(Data(("warning: " + LimitFlags.naming(TextEscaping.visible(message)) + "\n").utf8))
  }
}
