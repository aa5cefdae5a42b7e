import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// What the allocator (budget.c's, which counts every block against the cap) must never
/// break, whatever it does with blocks: contents through growth and shrinking, a count
/// that returns to where it was once the garbage is collected, the cap. Kept from an
/// allocator that cached small blocks by class, measured and not kept (docs/performance.md).
@Suite("The Lua heap through the allocator")
struct LuaHeapTests {
  private let generous = LuaLimits(maxInstructions: 100_000_000, maxTime: .zero)

  @Test("tables and strings that grow and shrink, from a few bytes to 128 KiB and back, keep their contents")
  func contentsSurviveMoves() throws {
    let lua = try LuaRuntime(limits: generous)
    let result = try lua.evaluateFirst(
      """
      local t = {}
      for i = 1, 5000 do t[i] = i * 3 end      -- the array part grows from 16 bytes to 128 KiB
      for i = 1, 5000 do assert(t[i] == i * 3, i) end
      for i = 20, 5000 do t[i] = nil end
      for k = 1, 100 do t["k" .. k] = k end     -- a rehash shrinks the array part
      for i = 1, 19 do assert(t[i] == i * 3, i) end
      for k = 1, 100 do assert(t["k" .. k] == k, k) end
      local s = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16}
      for j = 3, 16 do s[j] = nil end
      s.x = true                                -- a 256-byte array part shrunk by a rehash
      assert(s[1] == 1 and s[2] == 2 and s.x, "shrunk by a rehash")
      local parts = {}
      for i = 1, 300 do parts[i] = string.char(65 + i % 26) end
      local text = table.concat(parts)          -- a buffer that grows as it is filled
      assert(#text == 300 and text:sub(1, 3) == "BCD" and text:sub(-2) == "NO", text)
      local words = {}
      for i = 1, 2000 do words[#words + 1] = ("w%d"):format(i) end
      return #table.concat(words, " ")
      """)
    #expect(result == .integer(Int64((1...2000).map { "w\($0)".count }.reduce(0, +) + 1999)))
  }

  @Test("rounds of 100,000 small tables leave the count where the first left it")
  func countDoesNotDrift() throws {
    let lua = try LuaRuntime(limits: generous)
    let churn = """
      local keep = {}
      for i = 1, 100000 do keep[i] = { i, tostring(i) } end
      local sum = 0
      for i = 1, 100000 do sum = sum + keep[i][1] + #keep[i][2] end
      return sum
      """
    let first = try lua.evaluateFirst(churn)
    lua.collectGarbage()
    let counted = lua.memoryInUse
    for _ in 0..<3 {
      #expect(try lua.evaluateFirst(churn) == first)
      lua.collectGarbage()
    }
    // What Lua freed is uncounted again: the count does not drift round by round.
    #expect(abs(lua.memoryInUse - counted) < 64 * 1024, "\(lua.memoryInUse) after \(counted)")
    #expect(counted < 1024 * 1024, "live after collection: \(counted) bytes")
  }

  @Test("a rule that fills the cap with small tables gets the memory error and the runtime goes on")
  func smallBlocksHitTheCap() throws {
    let cap = 8 * 1024 * 1024
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 100_000_000, maxMemory: cap, maxTime: .zero))
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("local keep = {} for i = 1, 10000000 do keep[i] = { i } end")
    }
    #expect(error?.kind == .memoryLimit(cap))
    #expect(try lua.evaluateFirst("local t = {} for i = 1, 1000 do t[i] = { i } end return #t") == .integer(1000))
  }
}
