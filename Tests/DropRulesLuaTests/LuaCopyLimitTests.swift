import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua

/// Values crossing from Lua into Swift, and memory the host holds for rules: both count
/// against the runtime's cap.
@Suite("Lua copy limits and the memory account")
struct LuaCopyLimitTests {
  /// 30 tables, each holding the next twice: 2^30 entries when copied naively.
  private static let explodingValue = "local x = {} for _ = 1, 30 do x = { x, x } end"

  @Test("a value that explodes when copied is refused, passed to the host or returned")
  func explodingValues() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxMemory: 8 << 20, maxTime: .seconds(10)))
    let sink = lua.function { _ in [] }
    let passed = #expect(throws: LuaError.self) {
      try lua.evaluate(Self.explodingValue + " sink(x)", globals: ["sink": sink])
    }
    #expect(passed?.message.contains("too large to pass to the host") == true, "\(String(describing: passed))")
    #expect(passed?.file == nil || passed?.line != nil)
    let returned = #expect(throws: LuaError.self) { try lua.evaluate(Self.explodingValue + " return x") }
    #expect(returned?.kind == .memoryLimit(8 << 20))
    let deep = #expect(throws: LuaError.self) {
      try lua.evaluate("local x = {} for _ = 1, 40 do x = { x, x } end sink(x)", globals: ["sink": sink])
    }
    #expect(deep?.message.contains("nested deeper than 32 levels") == true)
  }

  @Test("the same large table passed again and again pays for each copy")
  func repeatedLargeArguments() throws {
    let lua = try LuaRuntime()
    let sink = lua.function { _ in [] }
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate(
        "local t = {} for i = 1, 100000 do t[i] = i end for _ = 1, 1e9 do sink(t) end", globals: ["sink": sink])
    }
    // Whichever runs out first: a debug build copies slowly enough to meet the deadline.
    #expect(error?.kind == .instructionLimit(LuaLimits.defaultMaxInstructions) || error?.kind == .timeLimit(250))
  }

  @Test("a table that contains itself is refused, not copied until some depth")
  func cycles() throws {
    let lua = try LuaRuntime()
    let sink = lua.function { _ in [] }
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("local t = {} t.me = { t } sink(t)", globals: ["sink": sink])
    }
    #expect(error?.message.contains("contains itself") == true)
    #expect(error?.line == 1)
  }

  @Test("printed output is cut per line and counts against the cap")
  func printedOutput() throws {
    // Copying costs instructions too: a budget large enough that memory runs out first.
    let limits = LuaLimits(maxInstructions: 1 << 40, maxMemory: 128 << 20, maxTime: .seconds(10))
    let lua = try LuaRuntime(limits: limits)
    try lua.evaluate("local s = string.rep('p', 20 << 20) for _ = 1, 3 do print(s) end")
    let lines = lua.takePrintedLines()
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.utf8.count < LuaRuntime.maximumPrintedLineBytes + 100 })
    #expect(lines.first?.hasSuffix("more bytes not shown)") == true)
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("local s = string.rep('p', 8000) for _ = 1, 1e6 do print(s) end")
    }
    #expect(error?.kind == .memoryLimit(128 << 20))
    #expect(lua.memoryInUse <= 128 << 20)
    lua.releasePrintedOutput()
    #expect(lua.memoryInUse < 64 << 20)
  }

  @Test("empty printed lines count against the cap too: print() in a loop ends at the cap")
  func emptyPrintedLines() throws {
    let limits = LuaLimits(maxInstructions: 1 << 40, maxMemory: 2 << 20, maxTime: .seconds(60))
    let lua = try LuaRuntime(limits: limits)
    let error = #expect(throws: LuaError.self) { try lua.evaluate("for _ = 1, 1e9 do print() end") }
    #expect(error?.kind == .memoryLimit(2 << 20))
    let lines = lua.takePrintedLines()
    // Each empty line held costs a String's size: the cap bounds how many are held.
    #expect(!lines.isEmpty)
    #expect(lines.count <= (2 << 20) / MemoryLayout<String>.stride)
    lua.releasePrintedOutput()
    #expect(lua.memoryInUse < 1 << 20)
  }

  @Test("a host function's results are pushed only if they fit under the cap")
  func hostResultsFitTheCap() throws {
    let limits = LuaLimits(maxInstructions: 1 << 40, maxMemory: 8 << 20, maxTime: .seconds(10))
    let lua = try LuaRuntime(limits: limits)
    let big = lua.function { _ in [.table(LuaTable(sequence: Array(repeating: .string("x"), count: 1 << 20)))] }
    let error = #expect(throws: LuaError.self) { try lua.evaluate("local t = big() return #t", globals: ["big": big]) }
    #expect(error?.kind == .memoryLimit(8 << 20))
    #expect(lua.memoryInUse <= 8 << 20)
  }

  @Test("running out of memory names the rule's file and line, with a traceback")
  func memoryErrorIsLocated() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write(
      "hog.lua",
      """
      local list
      for i = 1, 1e9 do
        list = { list, i }
      end
      """)
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 16 << 20, maxTime: .zero))
    let chunk = try lua.loadFile(atPath: path, environment: try lua.newEnvironment())
    let error = #expect(throws: LuaError.self) { try lua.call(chunk) }
    #expect(error?.kind == .memoryLimit(16 << 20))
    #expect(error?.file == path)
    #expect(error?.line == 3)
    #expect(error?.traceback.contains("hog.lua:") == true)
    #expect(lua.memoryInUse <= 16 << 20)
  }

  @Test("keys that differ in bytes but read the same in Swift are refused, not merged")
  func equivalentKeys() throws {
    let lua = try LuaRuntime()
    let sink = lua.function { _ in [] }
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate(#"sink({ ["\u{E9}"] = 1, ["e\u{301}"] = 2 })"#, globals: ["sink": sink])
    }
    #expect(error?.message.contains("two keys spelled") == true)
  }

  /// Found by the fuzzer's author: a resume that failed while its arguments were pushed
  /// left the allocator pointing at the coroutine, so the memory error that followed was
  /// raised in the wrong thread (or, once the coroutine was collected, in freed memory).
  @Test("after a resume that fails on its arguments, running out of memory is still located")
  func resumeFailureLeavesNoStaleThread() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write(
      "resume.lua",
      """
      local co = coroutine.create(function() end)
      local args = {} for i = 1, 500001 do args[i] = i end
      pcall(coroutine.resume, co, table.unpack(args))
      args = nil
      local list
      for i = 1, 1e9 do list = { list, i } end
      """)
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .seconds(30)))
    let chunk = try lua.loadFile(atPath: path, environment: try lua.newEnvironment())
    let error = #expect(throws: LuaError.self) { try lua.call(chunk) }
    #expect(error?.kind == .memoryLimit(LuaLimits.defaultMaxMemory))
    #expect(error?.line == 6)
  }
}
