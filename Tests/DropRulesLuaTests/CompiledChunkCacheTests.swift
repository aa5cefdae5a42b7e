import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua

/// Text compiled once per process: a chunk loaded again comes from the bytecode of its
/// first compile, and must behave exactly as compiling it again would.
@Suite("Compiled chunk cache")
struct CompiledChunkCacheTests {
  static let rule = """
    local function fail(message)
      error(message)
    end
    return {
      value = 6 * 7,
      big = 9007199254740993,
      half = 0.5,
      raise = function() fail("from the rule") end,
    }
    """

  @Test("a file loaded again comes from the cache and keeps its values, file, line and traceback")
  func cachedChunkBehavesAsCompiled() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("rule.lua", Self.rule)
    func run() throws -> (values: [LuaValue], error: LuaError?) {
      let lua = try LuaRuntime()
      let chunk = try lua.loadFile(atPath: path, environment: try lua.newEnvironment())
      guard case .reference(let table) = try lua.call(chunk, keepingTables: true).first ?? .nil else {
        return ([], nil)
      }
      let read = try lua.load(
        source: "local t = ...; return t.value, t.big, t.half, math.type(t.big), t.raise", chunkName: "=read")
      let values = try lua.call(read, [.reference(table)])
      guard case .function(let raise) = values.last ?? .nil else { return (values, nil) }
      do {
        try lua.call(raise)
        return (values, nil)
      } catch {
        return (Array(values.dropLast()), error)
      }
    }
    let compiled = try run()
    let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(CompiledChunkCache.shared.bytecode(chunkName: "@" + path, source: source)?.first == 0x1B)
    let cached = try run()
    #expect(compiled.values == [.integer(42), .integer(9_007_199_254_740_993), .number(0.5), .string("integer")])
    #expect(cached.values == compiled.values)
    #expect(compiled.error?.file == path && compiled.error?.line == 2)
    #expect(cached.error?.file == path && cached.error?.line == 2)
    #expect(cached.error?.message == "from the rule")
    #expect(cached.error?.traceback == compiled.error?.traceback)
    #expect(cached.error?.traceback.contains("rule.lua:2") == true)
  }

  @Test("a file changed on disk is compiled again, down to its last byte")
  func changedFileIsCompiledAgain() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("rule.lua", "return 1")
    func value() throws -> LuaValue {
      let lua = try LuaRuntime()
      return try lua.call(try lua.loadFile(atPath: path, environment: try lua.newEnvironment())).first ?? .nil
    }
    #expect(try value() == .integer(1))
    try directory.write("rule.lua", "return 2")
    #expect(try value() == .integer(2))
    try directory.write("rule.lua", "return 1")
    #expect(try value() == .integer(1))
    try directory.write("rule.lua", "return 1 ")
    #expect(try value() == .integer(1))
    try directory.write("rule.lua", "return 1 + ")
    let error = #expect(throws: LuaError.self) { try value() }
    #expect(error?.kind == .syntax)
  }

  @Test("the same text under another chunk name is its own entry: errors name the file they came from")
  func chunkNameIsPartOfTheKey() throws {
    let directory = try TemporaryDirectory()
    let text = "error('where am I')"
    let first = try directory.write("a.lua", text)
    let second = try directory.write("b.lua", text)
    for path in [first, second, first] {
      let lua = try LuaRuntime()
      let chunk = try lua.loadFile(atPath: path, environment: try lua.newEnvironment())
      let error = #expect(throws: LuaError.self) { try lua.call(chunk) }
      #expect(error?.file == path)
    }
  }

  @Test("a syntax error is reported on every load, never cached")
  func syntaxErrorsAreNotCached() throws {
    let source = Array("return {".utf8)
    for _ in 0..<2 {
      let lua = try LuaRuntime()
      let error = #expect(throws: LuaError.self) { try lua.load(source: source, chunkName: "=broken-cache-test") }
      #expect(error?.kind == .syntax)
    }
    #expect(CompiledChunkCache.shared.bytecode(chunkName: "=broken-cache-test", source: source) == nil)
  }

  @Test("the cache's own bytecode, written to a file or passed as text, is still refused")
  func cachedBytecodeFromOutsideIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("rule.lua", "return { box = {} }")
    let lua = try LuaRuntime()
    _ = try lua.loadFile(atPath: path, environment: nil)
    let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let bytecode = try #require(CompiledChunkCache.shared.bytecode(chunkName: "@" + path, source: source))
    let copy = directory.path + "/copy.lua"
    #expect(FileManager.default.createFile(atPath: copy, contents: Data(bytecode)))
    let refused = #expect(throws: LuaError.self) { try lua.loadFile(atPath: copy, environment: nil) }
    #expect(refused?.kind == .refused)
    // Under the very chunk name whose entry holds it, bytecode handed in as text is
    // refused, as from a file: the runtime compiles text only.
    let asText = #expect(throws: LuaError.self) { try lua.load(source: bytecode, chunkName: "@" + path) }
    #expect(asText?.kind == .refused)
  }

  @Test("a rule's require of a module that is the cache's bytecode is refused")
  func moduleBytecodeIsRefused() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("rule.lua", "return 1")
    let lua = try LuaRuntime()
    _ = try lua.loadFile(atPath: path, environment: nil)
    let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let bytecode = try #require(CompiledChunkCache.shared.bytecode(chunkName: "@" + path, source: source))
    #expect(FileManager.default.createFile(atPath: directory.path + "/mod.lua", contents: Data(bytecode)))
    lua.allowModules(in: directory.path)
    let error = #expect(throws: LuaError.self) { try lua.evaluate("return require('mod')") }
    #expect(error?.message.contains("binary chunk") == true)
  }

  @Test("the cache stays under its size, starting afresh when full, and keeps one entry per chunk name")
  func cacheIsBounded() {
    let cache = CompiledChunkCache()
    let quarter = CompiledChunkCache.maximumBytes / 4
    let block = [UInt8](repeating: 1, count: quarter / 2 - 8)
    for round in 0..<10 {
      cache.store(chunkName: "=chunk\(round)", source: block, bytecode: block)
      #expect(cache.storedBytes <= CompiledChunkCache.maximumBytes)
    }
    #expect(cache.bytecode(chunkName: "=chunk9", source: block) == block)
    #expect(cache.bytecode(chunkName: "=chunk0", source: block) == nil)
    let before = cache.storedBytes
    cache.store(chunkName: "=chunk9", source: [2], bytecode: [3])
    #expect(cache.storedBytes == before - 2 * block.count + 2)
    #expect(cache.bytecode(chunkName: "=chunk9", source: block) == nil)
    // A single entry larger than a quarter of the cache is not kept at all.
    let huge = [UInt8](repeating: 0, count: quarter)
    cache.store(chunkName: "=huge", source: huge, bytecode: huge)
    #expect(cache.bytecode(chunkName: "=huge", source: huge) == nil)
  }
}
