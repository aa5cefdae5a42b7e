import Foundation
import FoundationXML
import Testing

@testable import DropRulesTesting

/// Test names and failure messages come from test files and rules: whatever they hold,
/// no report may show a line, a directive or markup its author did not write.
@Suite("Reports cannot be forged by names or messages")
struct TestReportTests {
  /// Names and messages that try to break out of each format.
  static let hostile = [
    "x # SKIP", "x # TODO later", "back\\slash # SKIP", "multi\nok 5 - forged", "cr\rnot ok 6", "nul\0after",
    "esc \u{1B}[2J\u{1B}[31mred", "]]> & < > \" ' &amp;", "bell\u{07} del\u{7F} c1\u{9B}31m",
    "noncharacters \u{FFFE}\u{FFFF}", "line\u{2028}separator", "invalid byte \u{FFFD}", "tab\there",
    "&\u{301} combining",
  ]

  static func results(_ texts: [String]) -> [TestCaseResult] {
    texts.enumerated().map { offset, text in
      TestCaseResult(
        file: "rules/x/x_test.lua", name: text, status: offset.isMultiple(of: 2) ? .failed : .loadError,
        failures: ["rules/x/x_test.lua:\(offset + 1): " + text])
    }
  }

  @Test("TAP: every line is one the reporter wrote; # and \\ are escaped in descriptions")
  func tapLines() {
    let results = Self.results(Self.hostile)
    let tap = TestReport.tap(results)
    var lines = tap.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.removeFirst() == "TAP version 13")
    #expect(lines.removeFirst() == "1..\(results.count)")
    var number = 0
    while !lines.isEmpty {
      let line = lines.removeFirst()
      number += 1
      #expect(line.hasPrefix("not ok \(number) - rules/x/x_test.lua: "), "\(line)")
      // A directive starts at an unescaped #: there is none.
      #expect(!Self.hasUnescapedHash(line), "\(line)")
      #expect(lines.first == "  ---")
      #expect(lines.dropFirst().first?.hasPrefix("  message: \"") == true)
      #expect(lines.dropFirst(2).first == "  ...")
      lines.removeFirst(min(3, lines.count))
    }
    #expect(number == results.count)
    #expect(!tap.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
    #expect(tap.contains(##"not ok 1 - rules/x/x_test.lua: x \# SKIP"##))
    #expect(tap.contains(##"not ok 3 - rules/x/x_test.lua: back\\slash \# SKIP"##))
  }

  @Test("TAP: failure messages are YAML strings that read back as written")
  func tapMessagesRoundTrip() throws {
    let tap = TestReport.tap(Self.results(Self.hostile))
    let messages = tap.split(separator: "\n").filter { $0.hasPrefix("  message: ") }
      .map { String($0.dropFirst("  message: ".count)) }
    #expect(messages.count == Self.hostile.count)
    for (offset, (quoted, text)) in zip(messages, Self.hostile).enumerated() {
      #expect(try YAMLDoubleQuoted.decode(quoted) == "rules/x/x_test.lua:\(offset + 1): " + text)
    }
  }

  @Test("JUnit: a real XML parser reads the report, names and messages intact or visibly escaped")
  func junitParses() throws {
    let xml = TestReport.junit(Self.results(Self.hostile))
    let reader = JUnitReader()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = reader
    #expect(parser.parse(), "\(String(describing: parser.parserError)): \(xml)")
    #expect(reader.names.count == Self.hostile.count)
    #expect(reader.names.contains("]]> & < > \" ' &amp;"))
    #expect(reader.names.contains("x # SKIP"))
    #expect(reader.names.contains(#"esc \u{1B}[2J\u{1B}[31mred"#))
    #expect(reader.names.contains(#"nul\0after"#))
    #expect(reader.names.contains("&\u{301} combining"))
    #expect(reader.names.contains(#"multi\nok 5 - forged"#))
    #expect(reader.names.contains(#"noncharacters \u{FFFE}\u{FFFF}"#))
    #expect(reader.bodies.contains(#"rules/x/x_test.lua:6: nul\0after"#))
    #expect(reader.messages.contains("rules/x/x_test.lua:8: ]]> & < > \" ' &amp;"))
    let parsed = reader.names + reader.messages + reader.bodies
    #expect(!parsed.joined().unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" })
  }

  @Test("text: a name or message never starts a line of its own or carries escape codes")
  func textLines() {
    let text = TestReport.text(Self.results(Self.hostile))
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // File line, then a result line and one message line per test, a blank line, the summary.
    #expect(lines.count == 1 + 2 * Self.hostile.count + 2)
    #expect(lines.filter { !$0.hasPrefix(" ") }.map(String.init) == ["rules/x/x_test.lua", "", "0 passed, 14 failed"])
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F })
    #expect(text.contains(#"  ERROR multi\nok 5 - forged"#))
    #expect(text.contains(#"          rules/x/x_test.lua:6: nul\0after"#))
  }

  private static func hasUnescapedHash(_ line: String) -> Bool {
    var escaped = false
    for character in line {
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "#" {
        return true
      }
    }
    return false
  }
}

/// Collects testcase names and failure/error messages and bodies, as a CI server reads them.
private final class JUnitReader: NSObject, XMLParserDelegate {
  var names: [String] = []
  var messages: [String] = []
  var bodies: [String] = []
  private var body: String?

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if elementName == "testcase", let name = attributes["name"] { names.append(name) }
    if elementName == "failure" || elementName == "error" {
      messages.append(attributes["message"] ?? "")
      body = ""
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { body? += string }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    if elementName == "failure" || elementName == "error", let text = body {
      bodies.append(text)
      body = nil
    }
  }
}

/// Reads a YAML double-quoted scalar, with the escapes YAML 1.2 defines.
enum YAMLDoubleQuoted {
  struct Malformed: Error {}

  static func decode(_ quoted: String) throws -> String {
    var scalars = Array(quoted.unicodeScalars)
    guard scalars.count >= 2, scalars.removeFirst() == "\"", scalars.removeLast() == "\"" else { throw Malformed() }
    var result = String.UnicodeScalarView()
    var index = 0
    func hex(_ digits: Int) throws -> Unicode.Scalar {
      guard index + digits < scalars.count + 1,
        let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + digits])), radix: 16),
        let scalar = Unicode.Scalar(value)
      else { throw Malformed() }
      index += digits
      return scalar
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      // A bare quote would end the scalar; YAML folds raw line breaks and forbids
      // other non-printable characters.
      guard scalar != "\"", isPrintable(scalar) else { throw Malformed() }
      guard scalar == "\\" else {
        result.append(scalar)
        continue
      }
      guard index < scalars.count else { throw Malformed() }
      let escape = scalars[index]
      index += 1
      switch escape {
      case "0": result.append("\0")
      case "a": result.append("\u{07}")
      case "b": result.append("\u{08}")
      case "t": result.append("\t")
      case "n": result.append("\n")
      case "v": result.append("\u{0B}")
      case "f": result.append("\u{0C}")
      case "r": result.append("\r")
      case "e": result.append("\u{1B}")
      case "\"", "\\", "/", " ": result.append(escape)
      case "N": result.append("\u{85}")
      case "_": result.append("\u{A0}")
      case "L": result.append("\u{2028}")
      case "P": result.append("\u{2029}")
      case "x": result.append(try hex(2))
      case "u": result.append(try hex(4))
      case "U": result.append(try hex(8))
      default: throw Malformed()
      }
    }
    return String(result)
  }

  /// YAML 1.2's c-printable, without line breaks.
  static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }
}
