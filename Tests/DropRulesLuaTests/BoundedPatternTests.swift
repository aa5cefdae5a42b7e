import DropRulesLuaTestSupport
import Testing

@testable import DropRulesLua

/// The bounded pattern functions must give what Lua's own give, on every pattern.
@Suite("Bounded patterns agree with Lua's")
struct BoundedPatternTests {
  @Test("find, match, gmatch and gsub agree with Lua's own on 4,000 generated patterns")
  func agreesWithLua() throws {
    let lua = try LuaRuntime(limits: LuaLimits(maxInstructions: 1 << 40, maxTime: .seconds(120)))
    let original = try lua.originalPatternsForTesting()
    let results = try lua.evaluate(
      """
      local pieces = { "a", "b", "%a", "%d", "%s", "%W", ".", "(", ")", "()", "[ab]", "[^a]", "[%a-]", "[]]",
        "[a-c]", "*", "+", "-", "?", "^", "$", "%b()", "%f[%w]", "%1", "%2", "%", "x", "]", "[", "%%", "%.", "\\0" }
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
      local mismatches, compared = {}, 0
      local function compare(what, expected, got)
        compared = compared + 1
        if expected ~= got and #mismatches < 5 then
          mismatches[#mismatches + 1] = what .. " expected " .. expected .. " got " .. got
        end
      end
      for _ = 1, 4000 do
        local parts = {}
        for index = 1, random(6) do parts[index] = pieces[random(#pieces)] end
        local pattern = table.concat(parts)
        local subject = subjects[random(#subjects)]
        local init = inits[random(#inits)]
        local label = string.format("%q on %q from %d", pattern, subject, init)
        for _, name in ipairs({ "find", "match" }) do
          compare(name .. " " .. label, render(pcall(original[name], subject, pattern, init)),
            render(pcall(string[name], subject, pattern, init)))
        end
        compare("plain find " .. label, render(pcall(original.find, subject, pattern, init, true)),
          render(pcall(string.find, subject, pattern, init, true)))
        compare("gmatch " .. label, render(pcall(collect, original.gmatch, subject, pattern, init)),
          render(pcall(collect, string.gmatch, subject, pattern, init)))
        for _, replacement in ipairs({ "[%0]", "%1-%%", wrapped, { a = "A", b = false } }) do
          compare("gsub " .. label, render(pcall(original.gsub, subject, pattern, replacement, 3)),
            render(pcall(string.gsub, subject, pattern, replacement, 3)))
        end
      end
      return compared, table.concat(mismatches, "\\n")
      """, globals: ["original": original])
    #expect(results.first?.intValue ?? 0 >= 4000 * 7)
    // The functions compared are the bounded ones, also behind the string metatable.
    let replaced = try lua.evaluateFirst(
      "return string.find ~= original.find and ('x').gsub ~= original.gsub", globals: ["original": original])
    #expect(replaced == .boolean(true))
    #expect(results.dropFirst().first == .string(""))
  }
}
