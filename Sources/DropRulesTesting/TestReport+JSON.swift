import DropRules
import DropRulesModel

extension TestReport {
  /// One JSON document: the tests in the order they ran, totals, and the run's details.
  ///
  /// Each test has `file`, `name`, `status` (`passed`, `failed`, `error`: its file did
  /// not load, or `pending`), `failures` (each `message`, with the `file` and `line` it names, null
  /// when it names none), `printed` and `printedOmitted` (lines left out past the
  /// bound). `totals` counts `tests`, `passed`, `failed`, `errors` and `pending` (the text report's
  /// "failed" is `failed` plus `errors`). `coverage`, `seed` and `problems` are there
  /// when the run has them. Durations are left out: the same tests give the same document.
  public static func json(_ results: [TestCaseResult], _ details: RunDetails = RunDetails()) -> String {
    var document: [String: JSONValue] = [
      "tests": .array(results.map(json)),
      "totals": .object([
        "tests": .integer(Int64(results.count)),
        "passed": .integer(Int64(results.filter { $0.status == .passed }.count)),
        "failed": .integer(Int64(results.filter { $0.status == .failed }.count)),
        "errors": .integer(Int64(results.filter { $0.status == .loadError }.count)),
        "pending": .integer(Int64(results.filter { $0.status == .pending }.count)),
      ]),
    ]
    if let coverage = details.coverage { document["coverage"] = coverage.json }
    if let seed = details.shuffleSeed { document["seed"] = .integer(Int64(clamping: seed)) }
    if !details.problems.isEmpty { document["problems"] = .array(details.problems.map(JSONValue.string)) }
    return JSONValue.object(document).serialized(pretty: true)
  }

  private static func json(_ result: TestCaseResult) -> JSONValue {
    .object([
      "file": .string(result.file),
      "name": .string(result.name),
      "status": .string(result.status.name),
      "failures": .array(
        result.failures.map { failure in
          let located = FailureLocation(failure)
          return .object([
            "message": .string(located.message),
            "file": located.file.map(JSONValue.string) ?? .null,
            "line": located.line.map { .integer(Int64($0)) } ?? .null,
          ])
        }),
      "printed": .array(result.printed.lines.map(JSONValue.string)),
      "printedOmitted": .integer(Int64(result.printed.omittedLines)),
    ])
  }
}

/// The file and line a failure names: `rules/x/x_test.lua:31: expected ...`, also after
/// a `rule error: ` prefix. The file must be a `.lua` or `.json` file (rules, tests,
/// modules and scenarios are), so text in a message such as `"a:1: b"` is not taken
/// for a position.
struct FailureLocation: Equatable {
  var file: String?
  var line: Int?
  /// The failure without its position, with its prefix.
  var message: String

  init(file: String?, line: Int?, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  init(_ failure: String) {
    let prefix = failure.hasPrefix("rule error: ") ? "rule error: " : ""
    let text = failure.dropFirst(prefix.count)
    message = failure
    var searchStart = text.startIndex
    while let colon = text[searchStart...].firstIndex(of: ":") {
      let candidate = text[..<colon]
      let names = (candidate.hasSuffix(".lua") || candidate.hasSuffix(".json")) && !candidate.contains("\n")
      let after = text[text.index(after: colon)...]
      let digits = after.prefix(while: { $0.isASCII && $0.isNumber })
      if names, !digits.isEmpty, digits.endIndex < text.endIndex, text[digits.endIndex] == ":", let line = Int(digits) {
        set(file: candidate, line: line, rest: text[text.index(after: digits.endIndex)...], prefix: prefix)
        return
      }
      // `file: message`, with no line: a file that did not load, a scenario's path.
      if names, searchStart == text.startIndex, after.first == " " {
        set(file: candidate, line: nil, rest: after, prefix: prefix)
        return
      }
      searchStart = text.index(after: colon)
    }
  }

  private mutating func set(file: Substring, line: Int?, rest: Substring, prefix: String) {
    self.file = String(file)
    self.line = line
    message = prefix + String(rest.first == " " ? rest.dropFirst() : rest)
  }
}
