import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// The bounded pattern functions must give what Lua's own give, on every pattern.
@Suite("Bounded patterns agree with Lua's")
struct BoundedPatternTests {
  @Test("find, match, gmatch and gsub agree with Lua's own on 4,000 generated patterns")
  func agreesWithLua() throws {
    // The same script runs in the sandbox, whose string library is the bounded one (also
    // behind the string metatable), and in a plain Lua state, with Lua's own.
    let script = """
      local pieces = { "a", "b", "%a", "%d", "%s", "%W", ".", "(", ")", "()", "[ab]", "[^a]", "[%a-]", "[]]",
        "[a-c]", "*", "+", "-", "?", "^", "$", "%b()", "%f[%w]", "%1", "%2", "%", "x", "]", "[", "%%", "%.", "\\0",
        "%z", "%Z", "[%z]", "[^%z]", "%f[%z]", "%f[^%z]" }
      local subjects = { "", "a", "ab", "aab", "abba", "(a(b)c)", "hello world 42", "xaxbx", "a.b", "]]", "^$",
        "a\\0b", "  x  ", "%a%" }
      local inits = { 1, 2, -1, 0, 10, -10 }
      local seed = 7
      local function random(n)
        seed = (seed * 1103515245 + 12345) % 2147483648
        return seed % n + 1
      end
      local function render(ok, ...)
        if not ok then return "error" end
        local parts = {}
        for index = 1, select("#", ...) do
          local value = select(index, ...)
          parts[index] = (math.type(value) or type(value)) .. ":" .. tostring(value)
        end
        return table.concat(parts, ",")
      end
      local function collect(gmatch, subject, pattern, init)
        local out = {}
        for a, b in gmatch(subject, pattern, init) do
          out[#out + 1] = tostring(a) .. "|" .. tostring(b)
          if #out > 40 then break end
        end
        return table.concat(out, ";")
      end
      local function wrapped(value) return "<" .. value .. ">" end
      local records = {}
      local function record(what, got) records[#records + 1] = what .. " = " .. got end
      for _ = 1, 4000 do
        local parts = {}
        for index = 1, random(6) do parts[index] = pieces[random(#pieces)] end
        local pattern = table.concat(parts)
        local subject = subjects[random(#subjects)]
        local init = inits[random(#inits)]
        local label = string.format("%q on %q from %d", pattern, subject, init)
        for _, name in ipairs({ "find", "match" }) do
          record(name .. " " .. label, render(pcall(string[name], subject, pattern, init)))
        end
        record("plain find " .. label, render(pcall(string.find, subject, pattern, init, true)))
        record("gmatch " .. label, render(pcall(collect, string.gmatch, subject, pattern, init)))
        for index, replacement in ipairs({ "[%0]", "%1-%%", wrapped, { a = "A", b = false } }) do
          record("gsub " .. index .. " " .. label, render(pcall(string.gsub, subject, pattern, replacement, 3)))
        end
      end
      return table.concat(records, "\\n")
      """
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .seconds(120)))
    #expect(try lua.evaluateFirst("return rawequal(('x').gsub, string.gsub)") == .boolean(true))
    let bounded = try #require(try lua.evaluateFirst(script).stringValue).split(separator: "\n")
    let own = String(decoding: try #require(try PlainLua().run(script).first), as: UTF8.self).split(separator: "\n")
    #expect(bounded.count == own.count)
    #expect(own.count >= 4000 * 7)
    let mismatches = zip(own, bounded).filter { $0 != $1 }.prefix(5).map { "Lua: \($0)\nbounded: \($1)" }
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }
}
