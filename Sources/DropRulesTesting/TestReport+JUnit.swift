import DropRules
import Foundation

extension TestReport {
  /// JUnit XML, a test suite per file; valid XML 1.0 whatever names and messages hold.
  public static func junit(_ results: [TestCaseResult]) -> String {
    let failures = results.filter { $0.status == .failed }.count
    let errors = results.filter { $0.status == .loadError }.count
    let total = results.reduce(0) { $0 + $1.durationSeconds }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="droprules" tests="\#(results.count)" failures="\#(failures)" errors="\#(errors)" time="\#(String(format: "%.3f", total))">"#,
    ]
    let files = Dictionary(grouping: results, by: \.file)
    for file in files.keys.sorted() {
      let cases = files[file] ?? []
      lines.append(
        #"  <testsuite name="\#(xml(file))" tests="\#(cases.count)" failures="\#(cases.filter { $0.status == .failed }.count)" errors="\#(cases.filter { $0.status == .loadError }.count)">"#
      )
      for result in cases {
        let open =
          #"    <testcase classname="\#(xml(file))" name="\#(xml(result.name))" time="\#(String(format: "%.3f", result.durationSeconds))""#
        switch result.status {
        case .passed:
          lines.append(open + "/>")
        case .failed, .loadError:
          let element = result.status == .failed ? "failure" : "error"
          lines.append(open + ">")
          // One failure a line: a newline inside one is escaped like any control character.
          let body = result.failures.map(xml).joined(separator: "\n")
          let message = xml(result.failures.first ?? "")
          lines.append(#"      <\#(element) message="\#(message)">\#(body)</\#(element)>"#)
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n")
  }

  /// Text for an attribute value or element content: characters XML 1.0 refuses (and
  /// the other control characters) made visible escapes, then markup escaped. Tabs stay
  /// tabs, as a character reference, which attribute normalisation keeps.
  static func xml(_ text: String) -> String {
    var result = ""
    // Scalar by scalar: a combining mark after `&` must not hide it in one Character.
    for scalar in TextEscaping.visible(text, keepingTabs: true).unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t": result += "&#9;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
