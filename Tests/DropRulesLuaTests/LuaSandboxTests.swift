import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua

@Suite("Lua sandbox")
struct LuaSandboxTests {
  @Test(
    "dangerous globals are absent",
    arguments: ["io", "os", "debug", "package", "dofile", "loadfile"])
  func absentGlobals(name: String) throws {
    let lua = try LuaRuntime()
    let value = try lua.evaluateFirst("return \(name)")
    #expect(value.isNil)
    #expect(lua.stackDepth == 0)
  }

  @Test("string.dump is unreachable, also through the string metatable")
  func stringDump() throws {
    let lua = try LuaRuntime()
    #expect(try lua.evaluateFirst("return string.dump").isNil)
    #expect(try lua.evaluateFirst(#"return getmetatable("")"#) == "the string metatable is locked")
    #expect(try lua.evaluateFirst(#"return ("x").dump"#).isNil)
  }

  @Test("load refuses valid bytecode and accepts text")
  func loadRefusesBytecode() throws {
    let lua = try LuaRuntime()
    let bytecode = try PlainLua().bytecode(of: "return 42")
    #expect(bytecode.first == 0x1B)
    let bytes = LuaValue.string(String(decoding: bytecode, as: UTF8.self))
    // The bytes survive only if passed raw; use a host function so no re-encoding happens.
    let source = """
      local chunk, message = load(...)
      return chunk, message
      """
    let environment = try lua.newEnvironment()
    let chunk = try lua.load(source: source, chunkName: "=test", environment: environment)
    let results = try lua.call(chunk, [bytes])
    #expect(results.first?.isNil == true)
    #expect(results.count == 2 && results[1].stringValue?.contains("binary") == true)
    #expect(try lua.evaluateFirst("return load('return 6 * 7')()") == .integer(42))
    // A mode without "t" refuses text, as Lua's load does.
    #expect(
      try lua.evaluate("return load('return 6 * 7', 'x', 'b')")
        == [.nil, "attempt to load a text chunk (mode is 'b')"])
  }

  @Test("the runtime refuses binary chunks handed to it directly")
  func runtimeRefusesBytecode() throws {
    let lua = try LuaRuntime()
    let bytecode = try PlainLua().bytecode(of: "return 1")
    #expect(throws: LuaError.self) { try lua.load(source: bytecode, chunkName: "=bytecode") }
    let directory = try TemporaryDirectory()
    let path = directory.path + "/compiled.lua"
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytecode)))
    let error = #expect(throws: LuaError.self) { try lua.loadFile(atPath: path, environment: nil) }
    #expect(error?.kind == .refused)
    #expect(error?.file == path)
  }

  @Test("a file whose #! first line comes before a binary chunk is refused as binary, as luaL_loadfilex does")
  func shebangThenBytecode() throws {
    let lua = try LuaRuntime()
    let bytecode = try PlainLua().bytecode(of: "return 1")
    let directory = try TemporaryDirectory()
    for (name, prefix) in [("plain", ""), ("shebang", "#!/usr/bin/env lua\n"), ("marked", "\u{FEFF}#!lua\n")] {
      let path = directory.path + "/\(name).lua"
      #expect(FileManager.default.createFile(atPath: path, contents: Data(Array(prefix.utf8) + bytecode)))
      let error = #expect(throws: LuaError.self) { try lua.loadFile(atPath: path, environment: nil) }
      #expect(error?.kind == .refused, "\(name): \(error?.message ?? "")")
      #expect(error?.message == "binary (precompiled) chunks are not loaded; use the .lua source")
    }
    // A module too: require's own refusal, not a syntax error.
    lua.allowModules(in: directory.path)
    let error = #expect(throws: LuaError.self) { try lua.evaluate("return require('shebang')") }
    #expect(error?.message.contains("is a binary chunk; only .lua source is loaded") == true, "\(error?.message ?? "")")
    // Text after a #! line still compiles, its line counted.
    let text = try directory.write("text.lua", "#!/usr/bin/env lua\nreturn 1 +\n")
    let syntax = #expect(throws: LuaError.self) { try lua.loadFile(atPath: text, environment: nil) }
    #expect(syntax?.kind == .syntax)
    #expect(syntax?.line == 3, "\(syntax?.message ?? "")")
  }
  @Test("collectgarbage offers only count")
  func collectGarbage() throws {
    let lua = try LuaRuntime()
    #expect(try lua.evaluateFirst("return type(collectgarbage('count'))") == "number")
    let error = #expect(throws: LuaError.self) { try lua.evaluate("collectgarbage('collect')") }
    #expect(error?.message.contains("only \"count\"") == true)
  }

  @Test("finalizers cannot be installed, since they would run outside any budget")
  func noFinalizers() throws {
    let lua = try LuaRuntime()
    #expect(throws: LuaError.self) { try lua.evaluate("setmetatable({}, { __gc = function() end })") }
    #expect(try lua.evaluateFirst("return getmetatable(setmetatable({}, { x = 1 })).x") == .integer(1))
  }

  @Test("the safe libraries are there")
  func safeLibraries() throws {
    let lua = try LuaRuntime()
    let value = try lua.evaluateFirst(
      """
      return string.upper("a") .. table.concat({ "b" }) .. math.floor(1.5)
        .. utf8.char(67) .. type(coroutine.wrap) .. tostring(pcall(error, "x"))
      """)
    #expect(value == "Ab1Cfunctionfalse")
  }

  @Test("math.random repeats across runtimes with the same seed")
  func seededRandom() throws {
    let source = "return math.random(1, 1000000), math.random(1, 1000000)"
    let first = try LuaRuntime().evaluate(source)
    let second = try LuaRuntime().evaluate(source)
    #expect(first == second)
  }

  @Test("print is captured, not written to stdout")
  func printIsCaptured() throws {
    let lua = try LuaRuntime()
    try lua.evaluate("print('hello', 1, nil, true)")
    #expect(lua.takePrintedLines() == ["hello\t1\tnil\ttrue"])
    #expect(lua.takePrintedLines().isEmpty)
  }

  @Test("each environment has its own globals and library tables")
  func environmentsAreIsolated() throws {
    let lua = try LuaRuntime()
    try lua.evaluate("shared = 1; table.extra = 2")
    #expect(try lua.evaluateFirst("return shared").isNil)
    #expect(try lua.evaluateFirst("return table.extra").isNil)
  }

  @Test("each environment draws its own random numbers: one file's math.random never moves another's")
  func randomStateIsPerEnvironment() throws {
    let lua = try LuaRuntime()
    let first = try lua.evaluateFirst("return math.random(1 << 40)")
    try lua.evaluate("for _ = 1, 100 do math.random() end math.randomseed(42)")
    #expect(try lua.evaluateFirst("return math.random(1 << 40)") == first, "runs repeat, file by file")
    #expect(try LuaRuntime().evaluateFirst("return math.random(1 << 40)") == first)
  }

  @Test("the string library is read-only, and says why: a helper added to it would never be a method")
  func stringIsReadOnly() throws {
    let lua = try LuaRuntime()
    let error = #expect(throws: LuaError.self) {
      try lua.evaluate("\nfunction string.trim(s) return (s:gsub('^%s+', '')) end")
    }
    #expect(error?.line == 2)
    #expect(error?.message.contains("string (read-only: strings share one set of methods across rule files") == true)
    #expect(throws: LuaError.self) { try lua.evaluate("string.upper = nil") }
    #expect(throws: LuaError.self) { try lua.evaluate("rawset(string, 'x', 1)") }
    #expect(try lua.evaluateFirst("return ('abc'):upper() .. string.upper('d')") == "ABCD")
    #expect(try lua.evaluateFirst("local n = 0 for _ in pairs(string) do n = n + 1 end return n > 10") == true)
  }

  @Test("a chunk a rule loads is never taken for a file: named '@path', it reads 'path:line' but coverage skips it")
  func loadedChunksAreNotFiles() throws {
    let lua = try LuaRuntime()
    var observed: Set<String> = []
    lua.lineObserver = { file, _ in observed.insert(file) }
    let answers = try lua.evaluate(
      "local f = load('\\n\\nerror(\"boom\")', '@rules/calendar.lua') return pcall(f)")
    #expect(answers == [.boolean(false), "rules/calendar.lua:3: boom"])
    #expect(!observed.contains("rules/calendar.lua"))
  }

  @Test("load with an explicit nil environment leaves the chunk none, as Lua's does")
  func loadWithNilEnvironment() throws {
    let lua = try LuaRuntime()
    let answers = try lua.evaluate(
      "local ok, message = pcall(load('return print', 'chunk', 't', nil)) return ok, message")
    #expect(answers.first == .boolean(false))
    #expect(answers.dropFirst().first?.stringValue?.contains("_ENV") == true)
    #expect(try lua.evaluateFirst("return load('return type')() == type") == true)
  }

  @Test("syntax errors name the file and line")
  func syntaxError() throws {
    let lua = try LuaRuntime()
    let directory = try TemporaryDirectory()
    let path = try directory.write("broken.lua", "local x = 1\nreturn {\n  a = ,\n}\n")
    let error = #expect(throws: LuaError.self) { try lua.loadFile(atPath: path, environment: nil) }
    #expect(error?.kind == .syntax)
    #expect(error?.file == path)
    #expect(error?.line == 3)
    #expect(lua.stackDepth == 0)
  }

  @Test("runtime errors carry file, line and traceback")
  func runtimeError() throws {
    let lua = try LuaRuntime()
    let directory = try TemporaryDirectory()
    let path = try directory.write("fails.lua", "local function inner()\n  error('boom')\nend\ninner()\n")
    let chunk = try lua.loadFile(atPath: path, environment: try lua.newEnvironment())
    let error = #expect(throws: LuaError.self) { try lua.call(chunk) }
    #expect(error?.message == "boom")
    #expect(error?.file == path)
    #expect(error?.line == 2)
    #expect(error?.traceback.contains("inner") == true)
    #expect(lua.stackDepth == 0)
  }

  @Test("errors without a position take it from the traceback")
  func errorWithoutPosition() throws {
    let lua = try LuaRuntime()
    let directory = try TemporaryDirectory()
    let path = try directory.write("table-error.lua", "\n\nerror({ code = 1 })\n")
    let chunk = try lua.loadFile(atPath: path, environment: try lua.newEnvironment())
    let error = #expect(throws: LuaError.self) { try lua.call(chunk) }
    #expect(error?.message == "(error object is a table value)")
    #expect(error?.file == path)
    #expect(error?.line == 3)
  }
}
