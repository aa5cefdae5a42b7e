/// What one test printed, in order: its body, and the rule code it drove; kept up to a
/// bound, since a test that prints in a loop must not fill memory or bury the report.
///
/// Each line is already cut to 8 KiB by the sandbox's `print`. Beyond ``maximumLines``
/// lines or ``maximumBytes`` bytes, lines are only counted, and reports say how many
/// were left out.
public struct PrintedOutput: Sendable, Equatable {
  /// The lines kept, raw: reports escape them.
  public private(set) var lines: [String] = []
  /// Lines printed after the bound was reached.
  public private(set) var omittedLines = 0
  private var keptBytes = 0

  /// The most lines kept per test.
  public static let maximumLines = 1000
  /// The most bytes kept per test.
  public static let maximumBytes = 64 * 1024

  package init() {}

  package init(_ lines: some Sequence<String>) {
    append(contentsOf: lines)
  }

  /// Whether the test printed nothing.
  public var isEmpty: Bool { lines.isEmpty && omittedLines == 0 }

  package mutating func append(_ line: String) {
    let bytes = line.utf8.count
    guard omittedLines == 0, lines.count < Self.maximumLines, keptBytes + bytes <= Self.maximumBytes else {
      omittedLines += 1
      return
    }
    keptBytes += bytes
    lines.append(line)
  }

  package mutating func append(contentsOf lines: some Sequence<String>) {
    for line in lines { append(line) }
  }

  /// `... 12 more printed lines not shown`, or nil when none was left out.
  public var omissionNote: String? {
    guard omittedLines > 0 else { return nil }
    return "... \(omittedLines) more printed line\(omittedLines == 1 ? "" : "s") not shown"
  }
}
