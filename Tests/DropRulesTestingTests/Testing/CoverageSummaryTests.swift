import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTesting
@testable import DropRulesTools

@Suite("Coverage totals, thresholds and lcov")
struct CoverageSummaryTests {
  static func file(_ name: String, covered: Int, of total: Int) -> CoverageRecorder.FileCoverage {
    var hits: [Int: Int] = [:]
    for line in 1...max(total, 1) where line <= total { hits[line] = line <= covered ? line : 0 }
    return CoverageRecorder.FileCoverage(
      file: name, executableLines: total, coveredLines: covered,
      uncovered: Array(stride(from: covered + 1, through: total, by: 1)),
      lineHits: hits)
  }

  @Test("the total is covered over executable lines of every file, not an average of percentages")
  func total() {
    let summary = CoverageSummary(files: [Self.file("a.lua", covered: 1, of: 1), Self.file("b.lua", covered: 1, of: 3)])
    #expect(summary.coveredLines == 2)
    #expect(summary.executableLines == 4)
    #expect(summary.percent == 50)
    #expect(summary.tableLines.last == "  total   50.0% (2/4 lines)")
  }

  @Test("percentages are shown rounded down, so a total just under a threshold never reads as meeting it")
  func shownRoundedDown() {
    #expect(CoverageSummary.shown(covered: 7996, of: 10000) == "79.9")
    #expect(CoverageSummary.shown(covered: 2, of: 3) == "66.6")
    #expect(CoverageSummary.shown(covered: 123, of: 1000) == "12.3")
    #expect(CoverageSummary.shown(covered: 5, of: 5) == "100.0")
    #expect(CoverageSummary.shown(covered: 0, of: 0) == "100.0")
    let justUnder = CoverageSummary(files: [Self.file("a.lua", covered: 7996, of: 10000)], threshold: 80)
    #expect(justUnder.isBelowThreshold)
    #expect(justUnder.thresholdFailure == "coverage 79.9% is below the threshold of 80%")
  }

  @Test("a threshold is met at exactly its value and compared exactly, not as shown")
  func thresholdBoundaries() {
    let half = [Self.file("a.lua", covered: 1, of: 2)]
    #expect(!CoverageSummary(files: half, threshold: 50).isBelowThreshold)
    #expect(CoverageSummary(files: half, threshold: 50.001).isBelowThreshold)
    #expect(
      CoverageSummary(files: half, threshold: 50.001).thresholdFailure
        == "coverage 50.0% is below the threshold of 50.001%")
    #expect(!CoverageSummary(files: half, threshold: 0).isBelowThreshold)
    #expect(CoverageSummary(files: half).thresholdFailure == nil)
    let third = [Self.file("a.lua", covered: 1, of: 3)]
    #expect(CoverageSummary(files: third, threshold: 33.34).isBelowThreshold)
    #expect(!CoverageSummary(files: third, threshold: 33.33).isBelowThreshold)
  }

  @Test("a run in which no rule file ran covers nothing; files without code are fully covered")
  func emptyRuns() {
    let none = CoverageSummary(files: [], threshold: 10)
    #expect(none.percent == 0)
    #expect(none.thresholdFailure == "coverage 0.0% is below the threshold of 10% (no rule file ran)")
    #expect(!CoverageSummary(files: [], threshold: 0).isBelowThreshold)
    let blank = CoverageSummary(files: [Self.file("blank.lua", covered: 0, of: 0)], threshold: 100)
    #expect(blank.percent == 100)
    #expect(!blank.isBelowThreshold)
  }

  @Test("lcov: a record per file with DA for each executable line, LF and LH that agree with them")
  func lcovIsWellFormed() throws {
    let summary = CoverageSummary(files: [
      Self.file("rules/a.lua", covered: 2, of: 3), Self.file("rules/b.lua", covered: 0, of: 2),
    ])
    let records = try LCOVRecord.parse(summary.lcov)
    #expect(records.map(\.file) == ["rules/a.lua", "rules/b.lua"])
    #expect(records[0].hits == [1: 1, 2: 2, 3: 0])
    #expect(records[1].hits == [1: 0, 2: 0])
    #expect(summary.lcov.hasSuffix("end_of_record\n"))
  }

  @Test("lcov: a path with a newline cannot add records of its own")
  func lcovPathsAreEscaped() throws {
    let summary = CoverageSummary(files: [Self.file("rules/evil\nend_of_record\nSF:/etc/passwd.lua", covered: 1, of: 1)]
    )
    let records = try LCOVRecord.parse(summary.lcov)
    #expect(records.map(\.file) == [#"rules/evil\nend_of_record\nSF:/etc/passwd.lua"#])
  }

  @Test("the recorder counts how often each line ran, and lists every executable line")
  func recorderCountsHits() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("r.lua", "local x = 1\nif x then\n  x = 2\nelse\n  x = 3\nend\n")
    let recorder = CoverageRecorder()
    for _ in 1...3 { recorder.record(file: path, line: 1) }
    recorder.record(file: path, line: 2)
    let report = recorder.report()
    #expect(report.first?.lineHits == [1: 3, 2: 1, 3: 0, 5: 0])
    #expect(report.first?.uncovered == [3, 5])
    #expect(report.first?.coveredLines == 2)
  }
}

/// Reads an lcov tracefile strictly: `TN:`, then records of `SF:`, `DA:line,hits` lines in
/// increasing order, `LF:` equal to the DA count, `LH:` equal to the DAs with hits, and
/// `end_of_record`. Anything else is malformed.
struct LCOVRecord: Equatable {
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  var file: String
  var hits: [Int: Int] = [:]

  static func parse(_ text: String) throws -> [LCOVRecord] {
    guard text.hasSuffix("\n") else { throw Malformed(description: "no final newline") }
    var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.first?.hasPrefix("TN:") == true else { throw Malformed(description: "no TN line") }
    lines.removeFirst()
    var records: [LCOVRecord] = []
    var current: LCOVRecord?
    var lastLine = 0
    var found: Int?
    var hitCount: Int?
    for line in lines {
      if line.hasPrefix("SF:") {
        guard current == nil else { throw Malformed(description: "SF inside a record: \(line)") }
        current = LCOVRecord(file: String(line.dropFirst(3)))
        lastLine = 0
        found = nil
        hitCount = nil
      } else if line.hasPrefix("DA:"), current != nil, found == nil {
        let parts = line.dropFirst(3).split(separator: ",").map { Int($0) }
        guard parts.count == 2, let number = parts[0], let hits = parts[1], number > lastLine, hits >= 0 else {
          throw Malformed(description: "bad DA: \(line)")
        }
        current?.hits[number] = hits
        lastLine = number
      } else if line.hasPrefix("LF:"), let value = Int(line.dropFirst(3)), current != nil {
        guard value == current?.hits.count else {
          throw Malformed(description: "LF \(value) for \(current?.hits.count ?? 0) DA lines")
        }
        found = value
      } else if line.hasPrefix("LH:"), let value = Int(line.dropFirst(3)), found != nil {
        guard value == current?.hits.values.filter({ $0 > 0 }).count else {
          throw Malformed(description: "LH \(value)")
        }
        hitCount = value
      } else if line == "end_of_record", let record = current, found != nil, hitCount != nil {
        records.append(record)
        current = nil
      } else {
        throw Malformed(description: "unexpected line: \(line)")
      }
    }
    guard current == nil else { throw Malformed(description: "record without end_of_record") }
    return records
  }
}
