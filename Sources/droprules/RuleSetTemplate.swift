import DropRules
import DropRulesTools

/// The files `droprules init` writes: a small rule set that passes `check`, `test` and
/// luacheck as it is, and the editor and linter set-up for it.
enum RuleSetTemplate {
  /// Paths relative to the rule set's folder, and their contents, in the order written.
  static var files: [(path: String, contents: String)] {
    [
      ("shelf.lua", rule),
      ("shelf_test.lua", test),
      ("move-a-book.scenario.json", scenario),
      (".luarc.json", languageServerSettings),
      (".luacheckrc", LuacheckConfigWriter.configuration(.droprules)),
      ("types/droprules.d.lua", LuaDefinitionWriter.definitions(.droprules)),
    ]
  }

  static let rule = """
    -- A first rule set, made by `droprules init`. A rule file returns a table that maps a
    -- target type to its rule: the callbacks of SwiftUI's DropDelegate, in Lua.
    -- The whole API is in droprules' docs/reference.md; an editor that reads .luarc.json
    -- (lua-language-server) completes and explains every name from types/droprules.d.lua.

    ---@type droprules.RuleFile
    local rules = {
      shelf = {
        -- Like onDrop(of:): only items with plain text take part.
        accepts = { "public.plain-text" },

        -- A shelf with a capacity refuses a drag that would overfill it.
        validateDrop = function(info, shelf)
          local capacity = shelf.data.capacity
          if capacity == nil then return true end
          local arriving = 0
          for _, item in ipairs(info.items) do
            if item.container ~= shelf then arriving = arriving + 1 end
          end
          return #shelf.items + arriving <= capacity
        end,

        -- Option copies; anything else moves.
        dropUpdated = function(info, _shelf)
          return info.modifiers.option and "copy" or "move"
        end,

        -- The items go in together, at the gap the pointer names (or at the end).
        performDrop = function(info, shelf)
          local items = {}
          for position, item in ipairs(info.items) do
            items[position] = info.operation == "copy" and item:copy() or item
          end
          shelf:insert(items, info.index)
          return true
        end,
      },
    }

    return rules

    """

  static let test = """
    -- Tests for shelf.lua: each test builds a board with scenario{} (which loads shelf.lua)
    -- and drives a drag step by step. Run them with `droprules test`, which also runs
    -- busted specs (*_spec.lua) as they are, with luassert's assert, spies and hooks.

    local function book(id)
      return { id = id, name = id, representations = { { "public.plain-text", id } } }
    end

    local function shelves()
      return scenario { board = { targets = {
        { id = "left", type = "shelf", frame = { 0, 0, 100, 100 }, items = { book("dune"), book("emma") } },
        { id = "right", type = "shelf", frame = { 100, 0, 100, 100 }, data = { capacity = 1 } },
      } } }
    end

    test("a book moves to another shelf", function()
      local sim = shelves()
      local drag = sim:drag({ "dune" })
      expect(drag:over("right")):toBe("move")
      expect(drag:drop()):toBe("performed")
      expect(sim:items("left")):toEqual({ "emma" })
      expect(sim:items("right")):toEqual({ "dune" })
    end)

    test("option copies and leaves the original", function()
      local sim = shelves()
      local drag = sim:drag({ "dune" }, { modifiers = { "option" } })
      expect(drag:over("right")):toBe("copy")
      expect(drag:drop()):toBe("performed")
      expect(sim:items("left")):toEqual({ "dune", "emma" })
      expect(#sim:items("right")):toBe(1)
    end)

    test("a full shelf refuses the drop and nothing moves", function()
      local sim = shelves()
      local drag = sim:drag({ "dune", "emma" })
      expect(drag:over("right")):toBe("cancel")
      expect(drag:drop()):toBe("cancelled")
      expect(sim:items("left")):toEqual({ "dune", "emma" })
      expect(sim.errors):toEqual({})
    end)

    """

  static let scenario = """
    {
      "name": "move a book to the right shelf, then copy it with option",
      "rules": ["shelf.lua"],
      "board": {"targets": [
        {"id": "left", "type": "shelf", "frame": [0, 0, 100, 100],
         "items": [{"id": "dune", "name": "Dune", "representations": [["public.plain-text", "Dune"]]}]},
        {"id": "right", "type": "shelf", "frame": [100, 0, 100, 100], "items": []}
      ]},
      "drag": {"items": ["dune"]},
      "steps": [{"at": [50, 50]}, {"over": "right"}, {"modifiers": ["option"]}, "drop"],
      "expect": {"proposals": ["move", "move", "copy"], "outcome": "performed",
                 "board": {"left": ["dune"], "right": ["*"]}, "errors": 0}
    }

    """

  /// lua-language-server's settings: Lua 5.4, the libraries the sandbox leaves out
  /// turned off, and the generated definitions as a library.
  static let languageServerSettings = """
    {
      "runtime.version": "Lua 5.4",
      "runtime.builtin": {
        "io": "disable",
        "os": "disable",
        "debug": "disable",
        "package": "disable"
      },
      "workspace.library": ["types"],
      "workspace.checkThirdParty": false
    }

    """
}
