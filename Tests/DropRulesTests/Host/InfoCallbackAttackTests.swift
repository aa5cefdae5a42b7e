import DropRules
import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel

/// Info and the board read from coroutines, message handlers, metamethods and the
/// callbacks of the standard library read what the call staged, as it is.
@Suite("Info read-through attacks: reading info from places Lua calls back")
struct InfoCallbackAttackTests {
  @Test("inside a coroutine, info and the board read what the coroutine itself just staged")
  func readsInsideACoroutine() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target)
            local co = coroutine.create(function()
              local before = #target.items
              target:insert(info.items[1])
              coroutine.yield(before, #target.items, info.items[1].container == target)
              target:set("n", 5)
              return target.data.n, tostring(info.modifiers.option), #info.items
            end)
            print(select(2, coroutine.resume(co)))
            print(select(2, coroutine.resume(co)))
            return true
          end,
        } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))], modifiers: [.option]))
    try host.moveOver("a")
    #expect(try host.drop() == .performed)
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["0\t1\ttrue", "5\ttrue\t1"])
  }

  @Test("a coroutine kept across calls reads the modifiers of now, and in the next drag its info raises")
  func coroutineKeptAcrossCallsAndDrags() throws {
    let attack = try RuleAttack(
      rules: """
        local co
        return { box = { dropUpdated = function(info)
          if co == nil then
            co = coroutine.create(function()
              while true do coroutine.yield(tostring(info.modifiers.option)) end
            end)
          end
          local ok, value = coroutine.resume(co)
          print(tostring(ok), tostring(value):match("drag that has ended") or tostring(value))
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.setModifiers([.option])
    try host.setModifiers([])
    try host.cancel()
    #expect(attack.printed == ["true\tnil", "true\ttrue", "true\tnil"])
    try host.beginDrag(DragRequest(items: [.external(textItem("y"))], modifiers: [.option]))
    try host.moveOver("a")
    try host.cancel()
    #expect(attack.printed == ["false\tdrag that has ended"])
  }

  @Test("an xpcall message handler reads info and the change the failed function staged")
  func readsInAMessageHandler() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = {
          dropUpdated = function(info, target)
            local ok, message = xpcall(function()
              target:set("e", (target.data.e or 0) + 1)
              error("boom")
            end, function(m)
              return tostring(target.data.e) .. "/" .. tostring(info.modifiers.option) .. "/" .. #info.items
            end)
            print(tostring(ok), message)
            return "copy"
          end,
        } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.setModifiers([.option])
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["false\t1/nil/1", "false\t2/true/1"])
  }

  @Test(
    "an error object whose __tostring reads info, stages a change and never returns neither hangs nor leaks the change")
  func errorObjectToStringInTheHostsMessageHandler() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = {
          dropUpdated = function() return "copy" end,
          performDrop = function(info, target)
            error(setmetatable({}, { __tostring = function()
              target:set("leak", #info.items)
              local n = 0
              while true do n = n + #info.items end
            end }))
          end,
        } }
        """, limits: LuaLimits(maxInstructions: 100_000, maxTime: .seconds(2)))
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    let started = Date()
    #expect(try host.drop() == .failed)
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(host.board.target("a")?.data["leak"] == nil)
    #expect(attack.diagnostics.count == 1, "\(attack.brief)")
  }

  @Test("metamethods (__index, __len, __call, __concat, __eq, __lt, __close) read info and staged changes as they are")
  func readsInMetamethods() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local mt = {}
          mt.__index = function(_, key) return info[key] end
          mt.__len = function() return #info.items end
          mt.__call = function(_, n) target:set("n", n); return target.data.n, tostring(info.modifiers.option) end
          mt.__concat = function(_, other) return tostring(info.modifiers.option) .. "|" .. tostring(other) end
          mt.__eq = function() return info.modifiers.option == true end
          mt.__lt = function() target:set("lt", (target.data.lt or 0) + 1); return target.data.lt > 0 end
          mt.__close = function() target:set("closed", tostring(info.modifiers.option)) end
          local proxy, other = setmetatable({}, mt), setmetatable({}, mt)
          local n, option = proxy(7)
          do local closing <close> = proxy end
          print(#proxy, tostring(proxy.modifiers.option), n, option, proxy .. "z", tostring(proxy == other),
            tostring(proxy < other), target.data.lt, target.data.closed)
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.setModifiers([.option])
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(
      attack.printed == [
        "1\tnil\t7\tnil\tnil|z\tfalse\ttrue\t1\tnil",
        "1\ttrue\t7\ttrue\ttrue|z\ttrue\ttrue\t2\ttrue",
      ])
  }

  @Test("a table.sort comparator that stages a change on every comparison reads info and the board as they are")
  func readsInASortComparator() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local list = { 5, 3, 8, 1, 9, 2, 7, 4, 6 }
          local calls, wrong = 0, 0
          table.sort(list, function(a, b)
            calls = calls + 1
            target:set("c", calls)
            if target.data.c ~= calls or #info.items ~= 1 then wrong = wrong + 1 end
            if info.modifiers.option then return a > b end
            return a < b
          end)
          print(table.concat(list, ""), wrong)
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.setModifiers([.option])
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["123456789\t0", "987654321\t0"])
  }

  @Test("a string.gsub callback that stages a change per match reads info and the board as they are")
  func readsInAGsubCallback() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local out = ("abc"):gsub(".", function(c)
            target:set("c", c)
            return c .. (target.data.c == c and "=" or "!") .. (info.modifiers.option and "o" or "-")
          end)
          print(out)
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x"))]))
    try host.moveOver("a")
    try host.setModifiers([.option])
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["a=-b=-c=-", "a=ob=oc=o"])
  }
}
