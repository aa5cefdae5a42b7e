local function gear(id, kind, data)
  return { id = id, representations = { { "com.example.game." .. kind, id } }, data = data or { kind = id } }
end
local function potions(id) return gear(id, "potion", { kind = "health-potion", maxStack = 5 }) end

-- A head slot with a helmet, a hand slot, and four bag slots in a row below.
local function character()
  local function slot(id, slotType, x, y, item, count)
    return { id = id, type = slotType, frame = { x, y, 50, 50 }, items = { item },
      data = { count = count } }
  end
  return scenario { board = { targets = {
    slot("head", "inventory.head", 0, 0, gear("cap", "helmet")),
    slot("hand", "inventory.hand", 50, 0, nil),
    slot("bag1", "inventory.bag", 0, 100, potions("potions-a"), 3),
    slot("bag2", "inventory.bag", 50, 100, potions("potions-b"), 4),
    slot("bag3", "inventory.bag", 100, 100, gear("sword", "weapon")),
    slot("bag4", "inventory.bag", 150, 100, gear("crown", "helmet")),
    slot("bag5", "inventory.bag", 200, 100, nil),
    slot("bag6", "inventory.bag", 250, 100, potions("potions-c"), 1),
  } } }
end

test("only helmets go in the head slot, only weapons in the hand", function()
  local sim = character()
  local sword = sim:drag({ "sword" })
  expect(sword:over("head")):toBe("cancel")
  expect(sword:over("hand")):toBe("move")
  expect(sword:drop()):toBe("performed")
  expect(sim:items("hand")):toEqual({ "sword" })
  expect(sim:items("bag3")):toEqual({})
  expect(sim:drag({ "potions-a" }):over("hand")):toBe("cancel")
end)

test("identical items stack up to their limit and the rest stays behind", function()
  local sim = character()
  local drag = sim:drag({ "potions-a" })
  expect(drag:over("bag2")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:target("bag2").data.count):toBe(5)
  expect(sim:target("bag1").data.count):toBe(2)
  expect(sim:items("bag1")):toEqual({ "potions-a" })
end)

test("a stack that fits entirely is merged and its item is gone", function()
  local sim = character()
  local drag = sim:drag({ "potions-c" })
  expect(drag:over("bag1")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:target("bag1").data.count):toBe(4)
  expect(sim:items("bag1")):toEqual({ "potions-a" })
  expect(sim:items("bag6")):toEqual({})
  expect(sim:target("bag6").data.count):toBeNil()
  local draggable, problem = pcall(sim.drag, sim, { "potions-c" })
  expect(draggable):toBe(false)
  expect(problem):toContain("no item 'potions-c' on the board")
end)

test("a full stack swaps with an identical one instead of stacking", function()
  local sim = character()
  local fill = sim:drag({ "potions-a" })
  fill:over("bag2")
  fill:drop()
  local drag = sim:drag({ "potions-c" })
  expect(drag:over("bag2")):toBe("move")
  drag:drop()
  expect(sim:items("bag2")):toEqual({ "potions-c" })
  expect(sim:target("bag2").data.count):toBe(1)
  expect(sim:target("bag6").data.count):toBe(5)
end)

test("a full slot swaps its item with the dragged one", function()
  local sim = character()
  local drag = sim:drag({ "crown" })
  expect(drag:over("head")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("head")):toEqual({ "crown" })
  expect(sim:items("bag4")):toEqual({ "cap" })
end)

test("a swap is forbidden when the displaced item does not fit where the drag came from", function()
  local sim = character()
  local drag = sim:drag({ "cap" })
  expect(drag:over("bag3")):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("head")):toEqual({ "cap" })
  expect(sim:items("bag3")):toEqual({ "sword" })
  expect(sim:drag({ "cap" }):over("bag5")):toBe("move")
end)

test("swapping stacks swaps their counts", function()
  local sim = character()
  local drag = sim:drag({ "sword" })
  drag:over("bag1")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("bag1")):toEqual({ "sword" })
  expect(sim:items("bag3")):toEqual({ "potions-a" })
  expect(sim:target("bag3").data.count):toBe(3)
  expect(sim:target("bag1").data.count):toBe(1)
end)

test("dropping a stack back on its own slot changes nothing", function()
  local sim = character()
  local drag = sim:drag({ "potions-a" })
  expect(drag:over("bag1")):toBe("cancel")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:target("bag1").data.count):toBe(3)
end)

test("one stack at a time, and nothing from outside the game", function()
  local sim = character()
  expect(sim:drag({ "potions-a", "sword" }):over("bag5")):toBe("forbidden")
  local outsider = gear("mod", "weapon")
  expect(sim:drag({ outsider }):over("hand")):toBe("forbidden")
  expect(sim.errors):toEqual({})
end)

test("a drag that allows only copy takes nothing: items move between slots", function()
  local sim = character()
  local drag = sim:drag({ "potions-a" }, { allowedOperations = { "copy" } })
  expect(drag:over("bag3")):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
end)
