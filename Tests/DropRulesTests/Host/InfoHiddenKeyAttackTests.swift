import DropRules
import DropRulesHostTestSupport
import DropRulesLuaTestSupport
import DropRulesTestSupport
import Foundation
import Testing

@testable import DropRulesLua
@testable import DropRulesModel

/// The sandbox's hidden bookkeeping key is never given to a rule, by `next`, `pairs` or
/// any trick; and no write reaches info or what it holds.
@Suite("Info read-through attacks: the hidden key and writes")
struct InfoHiddenKeyAttackTests {
  @Test(
    "next over info, its points and sets never gives a key that is not a string or an index, before and after reads and changes"
  )
  func nextNeverGivesTheHiddenKey() throws {
    let attack = try RuleAttack(
      rules: """
        local function keys(object)
          local names, odd, count = {}, 0, 0
          local key = next(object)
          while key ~= nil do
            count = count + 1
            if type(key) ~= "string" and math.type(key) ~= "integer" then odd = odd + 1
            elseif type(key) == "string" then names[#names + 1] = key end
            key = next(object, key)
            if count > 100 then break end
          end
          table.sort(names)
          return odd, table.concat(names, ",")
        end
        local function check(label, info)
          local odd, names = keys(info)
          local viaPairs = 0
          for key in pairs(info) do if type(key) ~= "string" then viaPairs = viaPairs + 1 end end
          print(label, odd, viaPairs, names)
        end
        return { box = {
          dropUpdated = function(info, target)
            check("first", info)
            local _ = info.source, info.taken, info.nothing
            check("read", info)
            target:set("v", 1)
            check("changed", info)
            local _ = info.modifiers
            check("reread", info)
            for _, object in ipairs({ info.location, info.globalLocation, info.modifiers, info.allowedOperations,
              info.items, info.board }) do
              local odd = keys(object)
              if odd ~= 0 and object ~= info.items then print("odd key in", tostring(object)) end
            end
            return "copy"
          end,
        } }
        """)
    try attack.dragOverA()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    // The drag's items are made with the info and stay; the fields that can change during
    // a drag are in the backing once read and gone once forgotten (a board change), until
    // read again; the hidden key is never given. The fields of the call (hoverTime,
    // wouldContainItself, index...) are never in the info: they are read from the call.
    let made = "board,globalLocation,hasItemsConforming,itemProviders,items,kind,location"
    let read = "allowedOperations,board,globalLocation,hasItemsConforming,itemProviders,items,kind,location,modifiers"
    #expect(
      attack.printed == [
        "first\t0\t0\t\(made)", "read\t0\t0\t\(read)", "changed\t0\t0\t\(made)", "reread\t0\t0\t\(read)",
      ])
  }

  @Test("no rule-side trick reaches the hidden key or a sealed value's metatable")
  func noTrickReachesTheHiddenKey() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local found = {}
          local function note(what, value) if type(value) == "table" then found[#found + 1] = what end end
          -- Walk info with every key next gives, raw and not.
          local key = next(info)
          while key ~= nil do
            note("key " .. tostring(key), key)
            note("rawget " .. tostring(key), rawget(info, key) ~= nil and type(key) == "table" and key or nil)
            key = next(info, key)
          end
          -- Metatables of every sealed thing are names, not tables.
          for _, object in ipairs({ info, info.location, info.globalLocation, info.modifiers,
            info.allowedOperations, info.items, info.board, target, target.frame, target.data, info.items[1] }) do
            note("metatable of " .. tostring(object), getmetatable(object))
          end
          note("string metatable", getmetatable(""))
          -- The debug library, string.dump and a raw environment are not there.
          print(type(debug), type(string.dump), type(rawget(_G, "debug")), type(package), type(require and 1))
          -- A key that is not in the backing is refused by next, not skipped into it.
          local ok = pcall(next, info, {})
          print(#found, table.concat(found, ";"), tostring(ok))
          return "copy"
        end } }
        """)
    try attack.dragOverA()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["nil\tnil\tnil\tnil\tnumber", "0\t\tfalse"])
  }

  @Test("next over an info whose drag fields were forgotten mid-walk still never gives the hidden key")
  func nextAcrossAForget() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local _ = info.items
          local odd, count, errors = 0, 0, 0
          local ok, message = pcall(function()
            local key = next(info)
            while key ~= nil and count < 200 do
              count = count + 1
              if type(key) ~= "string" then odd = odd + 1 end
              -- Every step moves the version: the host forgets the drag fields under the walk.
              target:set("n", count)
              if count % 2 == 0 then local _ = info.modifiers end
              key = next(info, key)
            end
          end)
          if not ok then errors = 1 end
          print(odd, errors, ok or tostring(message):match("invalid key") or message)
          return "copy"
        end } }
        """)
    try attack.dragOverA()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    let fields = attack.printed.first?.split(separator: "\t") ?? []
    #expect(fields.first == "0", "next gave a key that is not a string: \(attack.printed)")
  }

  // MARK: Writes

  @Test("no write reaches info, its points, sets or items list, by any route")
  func writesAreRefused() throws {
    let attack = try RuleAttack(
      rules: """
        return { box = { dropUpdated = function(info, target)
          local attempts = {
            function() info.items = {} end,
            function() info.source = target end,
            function() info.taken = info.items end,
            function() info.location = {} end,
            function() info.location.x = 1 end,
            function() info.location[1] = 1 end,
            function() info.location[3] = 1 end,
            function() info.globalLocation.y = 1 end,
            function() info.modifiers.option = true end,
            function() info.allowedOperations.move = true end,
            function() info.items[1] = false end,
            function() info.items[2] = false end,
            function() rawset(info, "items", {}) end,
            function() rawset(info.location, "x", 1) end,
            function() rawset(info.location, 1, 1) end,
            function() setmetatable(info, nil) end,
            function() setmetatable(info.location, {}) end,
            function() setmetatable(info.items, {}) end,
            function() table.insert(info.items, info.items[1]) end,
            function() table.remove(info.items) end,
            function() table.sort(info.items, function(a, b) return a.id > b.id end) end,
            function() table.move({ 1, 2 }, 1, 2, 1, info.location) end,
          }
          local refused = 0
          for index, attempt in ipairs(attempts) do
            if not pcall(attempt) then refused = refused + 1 else print("allowed", index) end
          end
          print(refused, #attempts, info.location.x == info.location[1], info.items[1].id .. info.items[2].id,
            tostring(info.modifiers.option),
            tostring(info.allowedOperations.move), tostring(info.source), tostring(info.taken))
          return "copy"
        end } }
        """)
    let host = attack.host
    try host.beginDrag(DragRequest(items: [.external(textItem("x")), .external(textItem("y"))]))
    try host.moveOver("a")
    try host.cancel()
    #expect(attack.diagnostics.isEmpty, "\(attack.brief)")
    #expect(attack.printed == ["22\t22\ttrue\txy\tnil\tnil\tnil\tnil"])
  }
}
