import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// The reader of `lua_dump`'s output gives what Lua itself knows of a function.
@Suite("A dumped chunk reads back as Lua compiled it")
struct LuaFunctionListingTests {
  /// A chunk with short and long gaps between lines (a gap of 128 lines or more, and
  /// every 128th instruction, is written as an absolute line), long strings, numbers,
  /// nested functions and locals.
  static func source(seed: Int) -> String {
    // Spread, not random: a multiplicative hash of the statement and what it is for.
    func pick(_ index: Int, _ salt: Int, below bound: Int) -> Int {
      let statement = UInt64(index + 1) &* 2_654_435_761
      let purpose = UInt64(seed * 16 + salt) &* 40_503
      return Int(((statement ^ purpose) >> 7) % UInt64(bound))
    }
    var lines: [String] = []
    for index in 0..<300 {
      let gap = pick(index, 1, below: 4) == 0 ? pick(index, 2, below: 300) : pick(index, 3, below: 2)
      lines += Array(repeating: "", count: gap)
      switch pick(index, 4, below: 5) {
      case 0: lines.append("local v\(index) = \(pick(index, 5, below: 1000)) + 0.5")
      case 1: lines.append("x\(index) = [[\(String(repeating: "y", count: pick(index, 6, below: 80)))]]")
      case 2: lines.append("local function f\(index)(a) return a * \(index) end")
      case 3:
        let blank = String(repeating: "\n", count: pick(index, 7, below: 200))
        lines.append("test(\"n\(index)\", function()\n\(blank)end)")
      default: lines.append("t = { \(index), \"s\", true, nil, 1e300 }")
      }
    }
    return lines.joined(separator: "\n")
  }

  @Test("each instruction's line is one Lua lists among the function's lines", arguments: 0..<8)
  func linesAgree(_ seed: Int) throws {
    let runtime = try LuaRuntime()
    let chunk = try runtime.load(source: Self.source(seed: seed), chunkName: "@listing.lua")
    let listing = try #require(runtime.listing(of: chunk))
    #expect(listing.upvalueCount == 1)
    #expect(listing.lines.count == listing.instructions.count)
    // Lua's own view: the lines with code (a vararg function's first instruction, its
    // prologue, is left out of them).
    let activeLines = try runtime.load(
      source: """
        local lines = {}
        for line in pairs(debug.getinfo(..., "L").activelines) do lines[#lines + 1] = line end
        table.sort(lines)
        return lines
        """, chunkName: "=[active lines]")
    let answer = try runtime.call(activeLines, [.reference(chunk)])
    let expected = (answer.first?.tableValue?.sequence ?? []).compactMap(\.intValue)
    #expect(!expected.isEmpty)
    #expect(Set(listing.lines.dropFirst()).sorted() == expected)
  }

  @Test("each instruction has its own statement's line, past gaps of 200 lines and 128 instructions")
  func exactLines() throws {
    // One instruction a statement (`x = true`), so that the lines say which instruction
    // has which: a line attached one instruction early or late shows.
    var statementLines: [Int] = []
    var text: [String] = []
    for index in 0..<300 {
      text += Array(repeating: "", count: index % 50 == 7 ? 200 : index % 3)
      text.append(index.isMultiple(of: 2) ? "x = true" : "y = false")
      statementLines.append(text.count)
    }
    let runtime = try LuaRuntime()
    let chunk = try runtime.load(source: text.joined(separator: "\n"), chunkName: "@lines.lua")
    let listing = try #require(runtime.listing(of: chunk))
    // The vararg prologue on line 1, a statement each, and the final return.
    #expect(listing.instructions.count == 302)
    #expect(Array(listing.lines.dropLast()) == [1] + statementLines)
    #expect(listing.lines.last == statementLines.last)
  }

  @Test("a dump cut short or changed reads as nil or as a listing, never a crash")
  func damagedDumps() throws {
    let runtime = try LuaRuntime()
    let chunk = try runtime.load(source: Self.source(seed: 99), chunkName: "@listing.lua")
    let bytes = try #require(runtime.dump(of: chunk))
    #expect(LuaFunctionListing(dump: bytes) != nil)
    #expect(LuaFunctionListing(dump: bytes + [0]) == nil)
    for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 500)) {
      #expect(LuaFunctionListing(dump: Array(bytes[..<cut])) == nil)
    }
    for position in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 500)) {
      for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
        var damaged = bytes
        damaged[position] = value
        _ = LuaFunctionListing(dump: damaged)
      }
    }
  }
}
