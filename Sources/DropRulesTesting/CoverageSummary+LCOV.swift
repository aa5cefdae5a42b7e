import DropRules
import DropRulesModel

extension CoverageSummary {
  /// The coverage as an lcov tracefile (`--coverage-output`), which genhtml, Codecov and
  /// editors' coverage gutters read: per rule file `SF:path`, a `DA:line,hits` per
  /// executable line, `LF` (lines found), `LH` (lines hit) and `end_of_record`.
  ///
  /// lcov has no escaping, and a path is the one thing here that the filesystem names: a
  /// control character in it is written as a visible escape, so a file named with a
  /// newline cannot add records of its own.
  public var lcov: String {
    var lines = ["TN:droprules"]
    for file in files {
      lines.append("SF:" + TextEscaping.visible(file.file, keepingTabs: false))
      for line in file.lineHits.keys.sorted() {
        lines.append("DA:\(line),\(file.lineHits[line] ?? 0)")
      }
      lines.append("LF:\(file.executableLines)")
      lines.append("LH:\(file.coveredLines)")
      lines.append("end_of_record")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
