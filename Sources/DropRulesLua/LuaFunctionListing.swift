/// A chunk's main function as Lua 5.4's `lua_dump` writes it: its instructions, its
/// constants and the line of each instruction. For reading what droprules compiled itself
/// (``LuaRuntime/listing(of:)``), never bytecode from outside.
///
/// The format is `ldump.c`'s, the same from Lua 5.4.0 to 5.4.8: a header that pins the
/// version and the sizes of instructions and numbers, then each function (its code and
/// constants, its upvalues, its nested functions, and its debug information, in which
/// lines are deltas from the previous instruction's, with an absolute line where a delta
/// would not fit). Anything else, bytes after the dump included, reads as nil.
package struct LuaFunctionListing: Sendable, Equatable {
  /// A constant, as far as a reader of the code needs it.
  package enum Constant: Sendable, Equatable {
    case string([UInt8])
    case other
  }

  /// The function's instructions, in order.
  package var instructions: [UInt32]
  package var constants: [Constant]
  /// How many upvalues the function has (a main chunk has one, `_ENV`).
  package var upvalueCount: Int
  /// The line of each instruction; empty when the dump carries no debug information.
  package var lines: [Int]
  /// How many upvalues each function defined in this one has, by the index `CLOSURE`
  /// names it with.
  package var nestedUpvalueCounts: [Int] = []

  /// Reads the main function of a dump; nil if the bytes are not a Lua 5.4 dump of the
  /// layout this machine's Lua writes.
  package init?(dump: [UInt8]) {
    var reader = DumpReader(bytes: dump)
    guard reader.readHeader(), let upvalues = reader.byte(), let main = reader.function(depth: 0),
      main.upvalueCount == Int(upvalues), reader.offset == dump.count
    else { return nil }
    self = main
  }

  init(instructions: [UInt32], constants: [Constant], upvalueCount: Int, lines: [Int]) {
    self.instructions = instructions
    self.constants = constants
    self.upvalueCount = upvalueCount
    self.lines = lines
  }
}

/// A cursor over a dump's bytes; every read checks its bounds.
private struct DumpReader {
  let bytes: [UInt8]
  var offset = 0

  /// Nested functions deeper than this are not a dump droprules made.
  static let maximumDepth = 250

  mutating func byte() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, count <= bytes.count - offset else { return false }
    offset += count
    return true
  }

  /// `dumpSize`: seven bits a byte, most significant first, the last byte marked.
  mutating func size() -> Int? {
    var value = 0
    while let next = byte() {
      guard value <= (Int.max >> 7) else { return nil }
      value = value << 7 | Int(next & 0x7F)
      if next & 0x80 != 0 { return value }
    }
    return nil
  }

  /// `dumpString`: nil when the bytes run out; `.some(nil)` for the absent string the
  /// dump writes as size 0 (a function's source that is its parent's).
  mutating func string() -> [UInt8]?? {
    guard let size = size() else { return nil }
    if size == 0 { return .some(nil) }
    let start = offset
    guard skip(size - 1) else { return nil }
    return .some(Array(bytes[start..<offset]))
  }

  /// An instruction, in this machine's byte order (the header checked that it wrote it).
  mutating func instruction() -> UInt32? {
    guard offset + 4 <= bytes.count else { return nil }
    defer { offset += 4 }
    return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
  }

  /// The signature, version 5.4, the official format, the conversion check bytes,
  /// 4-byte instructions and 8-byte numbers, and this machine's byte order (the test
  /// integer 0x5678 and float 370.5 as it wrote them).
  mutating func readHeader() -> Bool {
    let expected: [UInt8] = [0x1B, 0x4C, 0x75, 0x61, 0x54, 0x00, 0x19, 0x93, 0x0D, 0x0A, 0x1A, 0x0A, 4, 8, 8]
    guard bytes.count >= expected.count + 16, Array(bytes[0..<expected.count]) == expected else { return false }
    offset = expected.count
    var integer = Int64(0x5678)
    var number = Double(370.5)
    let integerBytes = withUnsafeBytes(of: &integer) { Array($0) }
    let numberBytes = withUnsafeBytes(of: &number) { Array($0) }
    guard Array(bytes[offset..<offset + 8]) == integerBytes, Array(bytes[offset + 8..<offset + 16]) == numberBytes
    else { return false }
    offset += 16
    return true
  }

  mutating func function(depth: Int) -> LuaFunctionListing? {
    guard depth <= Self.maximumDepth, string() != nil, let lineDefined = size(), size() != nil, skip(3),
      let codeCount = size()
    else { return nil }
    var instructions: [UInt32] = []
    instructions.reserveCapacity(min(codeCount, bytes.count / 4))
    for _ in 0..<codeCount {
      guard let instruction = instruction() else { return nil }
      instructions.append(instruction)
    }
    guard let constants = constants(), let upvalueCount = size(), upvalueCount <= bytes.count, skip(upvalueCount * 3),
      let nested = size()
    else { return nil }
    var nestedUpvalueCounts: [Int] = []
    for _ in 0..<nested {
      guard let function = function(depth: depth + 1) else { return nil }
      nestedUpvalueCounts.append(function.upvalueCount)
    }
    guard let lines = lines(count: instructions.count, from: lineDefined), skipLocalsAndUpvalueNames() else {
      return nil
    }
    var listing = LuaFunctionListing(
      instructions: instructions, constants: constants, upvalueCount: upvalueCount, lines: lines)
    listing.nestedUpvalueCounts = nestedUpvalueCounts
    return listing
  }

  mutating func constants() -> [LuaFunctionListing.Constant]? {
    guard let count = size(), count <= bytes.count else { return nil }
    var constants: [LuaFunctionListing.Constant] = []
    for _ in 0..<count {
      switch byte() {
      case 0, 1, 17: constants.append(.other)  // nil, false, true
      case 3, 19:  // integer, float
        guard skip(8) else { return nil }
        constants.append(.other)
      case 4, 20:  // short and long strings
        guard case .some(let text) = string() else { return nil }
        constants.append(.string(text ?? []))
      default: return nil
      }
    }
    return constants
  }

  /// Each instruction's line: a signed delta from the one before, or the marker -128
  /// for the next absolute line (listed after the deltas, with its instruction).
  mutating func lines(count: Int, from lineDefined: Int) -> [Int]? {
    guard let deltaCount = size(), deltaCount == 0 || deltaCount == count else { return nil }
    let deltas = offset
    guard skip(deltaCount), let absoluteCount = size() else { return nil }
    var absolute: [(instruction: Int, line: Int)] = []
    for _ in 0..<absoluteCount {
      guard let instruction = size(), let line = size() else { return nil }
      absolute.append((instruction, line))
    }
    var lines: [Int] = []
    lines.reserveCapacity(deltaCount)
    var line = lineDefined
    var nextAbsolute = 0
    for index in 0..<deltaCount {
      let delta = Int8(bitPattern: bytes[deltas + index])
      if delta == -128 {
        guard nextAbsolute < absolute.count, absolute[nextAbsolute].instruction == index else { return nil }
        line = absolute[nextAbsolute].line
        nextAbsolute += 1
      } else {
        line += Int(delta)
      }
      lines.append(line)
    }
    return lines
  }

  mutating func skipLocalsAndUpvalueNames() -> Bool {
    guard let locals = size() else { return false }
    for _ in 0..<locals {
      guard string() != nil, size() != nil, size() != nil else { return false }
    }
    guard let names = size() else { return false }
    for _ in 0..<names {
      guard string() != nil else { return false }
    }
    return true
  }
}
