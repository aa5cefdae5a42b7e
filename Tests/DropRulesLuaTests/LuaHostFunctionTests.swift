import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

@Suite("Swift functions called from Lua")
struct LuaHostFunctionTests {
  @Test("arguments and results cross as LuaValue, tables deeply")
  func valuesCross() throws {
    let lua = try LuaRuntime()
    let echo = lua.function { arguments in arguments }
    let results = try lua.evaluate(
      "return echo(1, 2.5, 'text', true, nil, { 1, 2, name = 'n', nested = { x = 1 } })",
      globals: ["echo": echo])
    #expect(results.count == 6)
    #expect(Array(results.prefix(5)) == [.integer(1), .number(2.5), "text", true, nil])
    let table = try #require(results[5].tableValue)
    #expect(table.sequence == [.integer(1), .integer(2)])
    #expect(table["name"] == "n")
    #expect(table["nested"].tableValue?["x"] == .integer(1))
    #expect(lua.stackDepth == 0)
  }

  @Test("a thrown Swift error becomes a Lua error the caller can catch")
  func thrownErrorsBecomeLuaErrors() throws {
    let lua = try LuaRuntime()
    let fail = lua.function { _ in throw LuaHostError("refused by host") }
    let results = try lua.evaluate("return pcall(fail)", globals: ["fail": fail])
    #expect(results.first == false)
    #expect(results.last?.stringValue?.contains("refused by host") == true)
    let error = #expect(throws: LuaError.self) { try lua.evaluate("fail()", globals: ["fail": fail]) }
    #expect(error?.message.contains("refused by host") == true)
    #expect(lua.stackDepth == 0)
  }

  @Test("a call a host function makes runs on the thread that called it, not the main thread")
  func callsRunOnTheCallingThread() throws {
    let lua = try LuaRuntime()
    let isMain = try lua.load(source: "return (select(2, coroutine.running()))", chunkName: "=probe")
    var seen: [LuaValue] = []
    let probe = lua.function { _ in
      seen = try lua.call(isMain)
      return seen
    }
    let results = try lua.evaluate(
      "return coroutine.wrap(function() return probe() end)(), probe()", globals: ["probe": probe])
    #expect(results == [false, true])
    #expect(lua.stackDepth == 0)
  }

  @Test("host functions work from inside coroutines")
  func insideCoroutines() throws {
    let lua = try LuaRuntime()
    let double = lua.function { arguments in [.integer(Int64((arguments.first?.intValue ?? 0) * 2))] }
    let results = try lua.evaluate(
      "return coroutine.wrap(function() coroutine.yield(double(21)) end)()", globals: ["double": double])
    #expect(results == [.integer(42)])
  }

  @Test("a host result that does not fit under the cap is a Lua error raised in C, which the caller can catch")
  func resultsPushedUnderTheCap() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxMemory: 4 << 20, maxTime: .zero))
    let make = lua.function { arguments in
      let count = arguments.first?.intValue ?? 0
      return [.table(LuaTable(sequence: (0..<count).map { .string("value number \($0) of the host's result") }))]
    }
    // Results grow until the cap refuses one: each refusal is an error the rule catches.
    let outcome = try lua.evaluate(
      """
      local kept, refused, message = {}, 0, nil
      for n = 1, 40 do
        local ok, result = pcall(make, n * 2000)
        if ok then kept[#kept + 1] = result else refused = refused + 1; message = (message or "") .. "|" .. tostring(result) end
      end
      return refused, message
      """, globals: ["make": make])
    let refused = outcome.first?.intValue ?? 0
    #expect(refused > 0, "no result reached the cap")
    let message = outcome.dropFirst().first?.stringValue ?? ""
    #expect(message.contains("memory limit of 4194304 bytes exceeded"), "\(message.prefix(200))")
    #expect(lua.stackDepth == 0)
    #expect(try lua.evaluateFirst("return 1 + 1") == .integer(2))
  }

  @Test("tables with metatables keep their identity")
  func objectsKeepIdentity() throws {
    let lua = try LuaRuntime()
    let echo = lua.function { arguments in arguments }
    let value = try lua.evaluateFirst(
      "local object = setmetatable({}, {}) return echo(object) == object", globals: ["echo": echo])
    #expect(value == true)
  }

  /// Says when it is freed: what a host function's body holds lives as long as its box.
  final class Sentinel {
    var freed = false
    final class Holder {
      let sentinel: Sentinel
      init(_ sentinel: Sentinel) { self.sentinel = sentinel }
      deinit { sentinel.freed = true }
    }
  }

  @Test("a host function's Swift box lives as long as the Lua closure that holds it, not the runtime")
  func boxLivesAsLongAsItsClosure() throws {
    let lua = try LuaRuntime()
    let sentinel = Sentinel()
    let wrap = try lua.load(source: "local f = ...; return function() return f() end", chunkName: "=wrap")
    var wrapper: LuaReference?
    do {
      let holder = Sentinel.Holder(sentinel)
      let function = lua.function { _ in [.boolean(holder.sentinel.freed == false)] }
      guard case .function(let made) = try lua.call(wrap, [function]).first else {
        Issue.record("no wrapper")
        return
      }
      wrapper = made
    }
    // Swift dropped its reference; Lua still holds the closure, in the wrapper.
    lua.collectGarbage()
    #expect(!sentinel.freed)
    #expect(try lua.call(try #require(wrapper)) == [true])
    wrapper = nil
    lua.collectGarbage()
    #expect(sentinel.freed)
    #expect(lua.stackDepth == 0)
  }

  @Test("a runtime that closes releases the boxes of the functions it still held")
  func closingReleasesBoxes() throws {
    let sentinel = Sentinel()
    do {
      let lua = try LuaRuntime()
      let holder = Sentinel.Holder(sentinel)
      let function = lua.function { _ in [.boolean(holder.sentinel.freed)] }
      _ = try lua.evaluate("return f()", globals: ["f": function])
      #expect(!sentinel.freed)
    }
    #expect(sentinel.freed)
  }
}
