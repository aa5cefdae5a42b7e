import DropRulesLua

/// Where a test file's main chunk does nothing but register tests until it ends, read
/// from its bytecode: a load for one test may stop once that test is registered there,
/// because what would follow only counts registrations.
///
/// The tail is the longest run of statements before the chunk's final `return` that are
/// each `test(name, function ... end)`, `it(...)` or `pending(name[, function])` with a
/// literal string name: the global read from `_ENV`, the name a constant, the body a new
/// closure, the call with exactly those arguments and no results. No instruction there
/// jumps, calls anything else or runs a metamethod, so from any instruction inside it the
/// chunk runs straight to its end (Lua's own registrations must be in the environment:
/// the load checks that when it stops). A chunk with a to-be-closed variable has no tail:
/// the stop, an error, would close it.
///
/// The host cannot see an instruction's place, only its line (`debug.getinfo`), so the
/// tail is given as lines: those whose every instruction in the main chunk lies in it.
struct RegistrationTail: Equatable {
  /// The lines of the main chunk on which a registration may stop its load.
  var lines: Set<Int>
  /// How many registration statements the tail holds.
  var registrations: Int
  /// At most the bytes the tail's registrations allocate: each body's closure and the
  /// upvalues it may make (a stopped load skips them, and so does not move the memory cap
  /// nearer its collection).
  var allocationBound: Int

  /// The globals whose calls the tail may hold.
  static let registrationNames: Set<[UInt8]> = [Array("test".utf8), Array("it".utf8), Array("pending".utf8)]

  /// Lua 5.4's opcodes that a tail holds, and the one that rules a tail out
  /// (`lopcodes.h`, unchanged from 5.4.0 to 5.4.8).
  enum Opcode: UInt32 {
    case loadConstant = 3
    case getTableUpvalue = 11
    case toBeClosed = 55
    case call = 68
    case returnValues = 70
    case closure = 79
    case varargPrologue = 81
  }

  /// The tail of `listing`'s chunk, or nil when it has none (or no line information).
  init?(_ listing: LuaFunctionListing) {
    let code = listing.instructions
    guard listing.upvalueCount == 1, listing.lines.count == code.count, let last = code.last,
      Self.opcode(last) == Opcode.returnValues.rawValue, Self.argumentB(last) == 1,
      !code.contains(where: { Self.opcode($0) == Opcode.toBeClosed.rawValue })
    else { return nil }
    var start = code.count - 1
    var registrations = 0
    var allocationBound = 0
    while let statement = Self.registration(endingAt: start - 1, in: listing) {
      if let body = Self.closureProto(of: statement, in: listing) {
        let upvalues = listing.nestedUpvalueCounts.indices.contains(body) ? listing.nestedUpvalueCounts[body] : 255
        allocationBound += Self.closureBytes(upvalues: upvalues)
      }
      start = statement
      registrations += 1
    }
    guard registrations > 0 else { return nil }
    // The chunk's prologue runs once, before anything else, so it may share the tail's
    // first line (a file that starts with a registration).
    let prologue = Self.opcode(code[0]) == Opcode.varargPrologue.rawValue ? 1 : 0
    var lines = Set(listing.lines[start...])
    for line in listing.lines[min(prologue, start)..<start] { lines.remove(line) }
    guard !lines.isEmpty else { return nil }
    self.lines = lines
    self.registrations = registrations
    self.allocationBound = allocationBound
  }

  /// More than a closure of `upvalues` upvalues takes, each upvalue new (Lua 5.4 on a
  /// 64-bit machine: a 32-byte closure with a pointer per upvalue, 40 bytes an upvalue).
  static func closureBytes(upvalues: Int) -> Int { 64 + 64 * upvalues }

  /// The function the statement at `start` makes its body of, by its index among the
  /// chunk's functions; nil for a `pending` without a body.
  private static func closureProto(of start: Int, in listing: LuaFunctionListing) -> Int? {
    let body = listing.instructions[start + 2]
    guard opcode(body) == Opcode.closure.rawValue else { return nil }
    return Int(body >> 15)
  }

  /// The first instruction of the registration statement whose call is at `end`, or nil
  /// when the instructions there are not one.
  private static func registration(endingAt end: Int, in listing: LuaFunctionListing) -> Int? {
    let code = listing.instructions
    guard end >= 2, opcode(code[end]) == Opcode.call.rawValue else { return nil }
    let call = code[end]
    let base = argumentA(call)
    let arguments = argumentB(call) - 1
    // A call with no results (C == 1), of the function in `base` and its arguments after it.
    guard argumentC(call) == 1, arguments == 1 || arguments == 2, end - arguments - 1 >= 0 else { return nil }
    let start = end - arguments - 1
    let function = code[start]
    guard opcode(function) == Opcode.getTableUpvalue.rawValue, argumentA(function) == base,
      argumentB(function) == 0, case .string(let name) = constant(argumentC(function), in: listing),
      registrationNames.contains(name)
    else { return nil }
    // A body may be left out only by `pending`.
    guard arguments == 2 || name == Array("pending".utf8) else { return nil }
    let title = code[start + 1]
    guard opcode(title) == Opcode.loadConstant.rawValue, argumentA(title) == base + 1,
      case .string = constant(Int(title >> 15), in: listing)
    else { return nil }
    if arguments == 2 {
      let body = code[start + 2]
      guard opcode(body) == Opcode.closure.rawValue, argumentA(body) == base + 2 else { return nil }
    }
    return start
  }

  private static func constant(_ index: Int, in listing: LuaFunctionListing) -> LuaFunctionListing.Constant? {
    listing.constants.indices.contains(index) ? listing.constants[index] : nil
  }

  // An instruction: opcode in bits 0-6, A in 7-14, k in 15, B in 16-23, C in 24-31.
  static func opcode(_ instruction: UInt32) -> UInt32 { instruction & 0x7F }
  static func argumentA(_ instruction: UInt32) -> Int { Int(instruction >> 7 & 0xFF) }
  static func argumentB(_ instruction: UInt32) -> Int { Int(instruction >> 16 & 0xFF) }
  static func argumentC(_ instruction: UInt32) -> Int { Int(instruction >> 24 & 0xFF) }
}
