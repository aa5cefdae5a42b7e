import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRules
@testable import DropRulesLua
@testable import DropRulesModel
@testable import DropRulesTools

@Suite("request line splitter")
struct RequestLineSplitterTests {
  @Test("lines split across chunks come out whole; CRLF loses its CR; the last line needs no newline")
  func splitsLines() {
    var splitter = RequestLineSplitter(maximumLength: 100)
    var lines: [RequestLineSplitter.Line] = []
    for chunk in ["{\"a\"", ": 1}\r\n{\"b\": 2}\n\n", "tail"] { lines += splitter.append(Data(chunk.utf8)) }
    #expect(
      lines == [.complete(Data(#"{"a": 1}"#.utf8)), .complete(Data(#"{"b": 2}"#.utf8)), .complete(Data())])
    #expect(splitter.finish() == .complete(Data("tail".utf8)))
    #expect(splitter.finish() == nil)
  }

  @Test("a line over the maximum is counted and dropped; the next line is read as usual")
  func dropsLongLines() {
    var splitter = RequestLineSplitter(maximumLength: 10)
    var lines: [RequestLineSplitter.Line] = []
    for _ in 0..<9 { lines += splitter.append(Data("abc".utf8)) }
    lines += splitter.append(Data("\nok\n0123456789\r\n01234567890\n".utf8))
    #expect(
      lines == [
        .tooLong(byteCount: 27), .complete(Data("ok".utf8)), .complete(Data("0123456789".utf8)),
        .tooLong(byteCount: 11),
      ])
    _ = splitter.append(Data(repeating: 0x41, count: 50))
    #expect(splitter.finish() == .tooLong(byteCount: 50))
  }

  @Test("100 MB without a newline is one overlong line, read in chunks without being kept")
  func hundredMegabytes() {
    var splitter = RequestLineSplitter()
    let chunk = Data(repeating: UInt8(ascii: "["), count: 64 * 1024)
    var lines: [RequestLineSplitter.Line] = []
    for _ in 0..<1600 { lines += splitter.append(chunk) }
    lines += splitter.append(Data("\n{}\n".utf8))
    #expect(lines == [.tooLong(byteCount: 1600 * 64 * 1024), .complete(Data("{}".utf8))])
  }
}
