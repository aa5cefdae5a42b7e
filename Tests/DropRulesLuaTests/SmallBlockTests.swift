import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// The Lua heap's small blocks come from slabs by size class (small_blocks.c); a block
/// that grows or shrinks across classes, or across the line between slabs and malloc,
/// moves. These hold what that must never break: contents, the memory count, reuse.
@Suite("Small blocks from slabs")
struct SmallBlockTests {
  private let generous = LuaLimits(maxInstructions: 100_000_000, maxTime: .zero)

  @Test("tables and strings that grow and shrink across size classes and past 256 bytes keep their contents")
  func contentsSurviveMoves() throws {
    let lua = try LuaRuntime(limits: generous)
    let result = try lua.evaluateFirst(
      """
      local t = {}
      for i = 1, 5000 do t[i] = i * 3 end      -- the array part grows from 16 bytes to 128 KiB
      for i = 1, 5000 do assert(t[i] == i * 3, i) end
      for i = 20, 5000 do t[i] = nil end
      for k = 1, 100 do t["k" .. k] = k end     -- a rehash shrinks the array part back to slabs
      for i = 1, 19 do assert(t[i] == i * 3, i) end
      for k = 1, 100 do assert(t["k" .. k] == k, k) end
      local parts = {}
      for i = 1, 300 do parts[i] = string.char(65 + i % 26) end
      local text = table.concat(parts)          -- a buffer that grows past the slabs' sizes
      assert(#text == 300 and text:sub(1, 3) == "BCD" and text:sub(-2) == "NO", text)
      local words = {}
      for i = 1, 2000 do words[#words + 1] = ("w%d"):format(i) end
      return #table.concat(words, " ")
      """)
    #expect(result == .integer(Int64((1...2000).map { "w\($0)".count }.reduce(0, +) + 1999)))
  }

  @Test("small blocks freed are taken again: a second round of 100,000 small tables holds no more slabs")
  func freedBlocksAreReused() throws {
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
    let slabs = lua.smallBlockSlabBytes
    let counted = lua.memoryInUse
    #expect(slabs > 4 * 1024 * 1024, "100,000 tables and strings came from slabs: \(slabs) bytes")
    #expect(try lua.evaluateFirst(churn) == first)
    lua.collectGarbage()
    #expect(lua.smallBlockSlabBytes <= slabs + 64 * 1024, "\(lua.smallBlockSlabBytes) after \(slabs)")
    // What Lua freed is uncounted again: the count does not drift round by round.
    #expect(abs(lua.memoryInUse - counted) < 64 * 1024, "\(lua.memoryInUse) after \(counted)")
    #expect(counted < 1024 * 1024, "live after collection: \(counted) bytes")
  }

  @Test("a rule that fills the cap with small tables gets the memory error, and the slabs stay under the cap")
  func smallBlocksHitTheCap() throws {
    let cap = 8 * 1024 * 1024
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 100_000_000, maxMemory: cap, maxTime: .zero))
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("local keep = {} for i = 1, 10000000 do keep[i] = { i } end")
    }
    #expect(error?.kind == .memoryLimit(cap))
    #expect(lua.smallBlockSlabBytes <= cap, "\(lua.smallBlockSlabBytes)")
    #expect(try lua.evaluateFirst("local t = {} for i = 1, 1000 do t[i] = { i } end return #t") == .integer(1000))
  }
}
