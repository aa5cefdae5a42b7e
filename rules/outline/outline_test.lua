-- An outline in columns: the root list on the left, each row's children in a list of its
-- own to the right (frames are the app's; only the rows' order and nesting matter here).
-- Rows are 30 points high.
local function row(id, name) return { id = id, name = name, opens = id .. "-rows" } end
local function list(id, name, frame, rows, extra)
  local target = { id = id, type = "outline.list", frame = frame, itemExtent = 30, axis = "vertical",
    data = { name = name }, items = rows }
  for key, value in pairs(extra or {}) do target[key] = value end
  return target
end

local function outline(settings)
  return scenario { board = { targets = {
    list("root", "Outline", { 0, 0, 200, 300 }, { row("errands", "Errands"), row("work", "Work"),
      row("groceries", "Groceries") }, { data = settings or { name = "Outline" } }),
    list("errands-rows", "Errands", { 220, 0, 200, 100 }, { row("bank", "Bank") }),
    list("bank-rows", "Bank", { 440, 0, 200, 100 }, {}),
    list("work-rows", "Work", { 220, 110, 200, 100 }, { row("report", "Report") }, { collapsed = true }),
    list("report-rows", "Report", { 440, 110, 200, 100 }, {}),
    list("groceries-rows", "Groceries", { 220, 220, 200, 100 }, { row("milk", "Milk"), row("eggs", "Eggs") }),
    list("milk-rows", "Milk", { 440, 220, 200, 40 }, {}),
    list("eggs-rows", "Eggs", { 440, 260, 200, 40 }, {}),
  } } }
end

test("a row dropped on another row's middle goes under it, with its whole subtree", function()
  local sim = outline()
  local drag = sim:drag({ "groceries" })
  -- Errands' row spans y 0 to 30; its middle third is 10 to 20.
  expect(drag:at(100, 15)):toBe("move")
  expect(drag.lastStep.announcement):toBe("Groceries: under Errands.")
  expect(drag:drop()):toBe("performed")
  expect(drag.lastStep.announcement):toBe("Moved Groceries under Errands, 2 of 2.")
  expect(sim:items("root")):toEqual({ "errands", "work" })
  expect(sim:items("errands-rows")):toEqual({ "bank", "groceries" })
  expect(sim:target("groceries-rows").parent):toBe("errands-rows")
  expect(sim:items("groceries-rows")):toEqual({ "milk", "eggs" })
end)

test("a row never goes under itself or its own descendants", function()
  local sim = outline()
  local drag = sim:drag({ "groceries" })
  -- Its own row's middle: under itself.
  expect(drag:at(100, 75)):toBe("forbidden")
  -- Its own child's list, and the middle of its child's row.
  expect(drag:over("groceries-rows", { index = 1 })):toBe("forbidden")
  expect(drag:at(300, 235)):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("root")):toEqual({ "errands", "work", "groceries" })
  sim:takeErrors()
end)

test("between rows, a row moves among siblings at the gap", function()
  local sim = outline()
  local drag = sim:drag({ "groceries" })
  expect(drag:at(100, 2)):toBe("move")
  expect(drag.lastStep.announcement):toBe("Groceries: in Outline, at 1.")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("root")):toEqual({ "groceries", "errands", "work" })
end)

test("an outline at most three levels deep refuses a row that would go deeper", function()
  local sim = outline({ name = "Outline", maxDepth = 3 })
  -- Groceries (two levels: itself and milk, eggs) under bank (level 3) would reach level 4.
  local drag = sim:drag({ "groceries" })
  expect(drag:at(300, 15)):toBe("forbidden")
  expect(drag.lastStep.printed):toEqual({ "the outline is at most 3 levels deep" })
  -- Under errands it reaches level 3: fine.
  expect(drag:at(100, 15)):toBe("move")
  drag:cancel()
end)

test("a closed row springs open after the pointer rests on it; its children take the drop", function()
  local sim = outline()
  local drag = sim:drag({ "milk" })
  -- Work's children are closed: their list takes nothing yet.
  expect(drag:over("work-rows")):toBe("cancel")
  -- Work's row spans y 30 to 60; resting on its middle opens it.
  expect(drag:at(100, 45)):toBe("move")
  expect(drag:wait(600)):toBe("move")
  expect(drag.lastStep.springLoaded):toEqual({ "work-rows" })
  expect(drag:over("work-rows", { index = 1 })):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("work-rows")):toEqual({ "milk", "report" })
  expect(sim:target("work-rows").collapsed):toBe(true)
end)

test("the preview names the row and counts what comes with it", function()
  local sim = outline()
  local drag = sim:drag({ "groceries" })
  local begin = drag.lastStep
  expect(begin.preview.title):toBe("Groceries")
  expect(begin.preview.subtitle):toBe("with 2 rows under it")
  drag:cancel()
end)

test("text dragged in from another app is no row: forbidden, and its cancel is announced without error", function()
  local sim = outline()
  local drag = sim:drag({ { id = "note", representations = { { "public.plain-text", "note" } } } })
  expect(drag:over("root", { index = 1 })):toBe("forbidden")
  expect(drag:cancel()):toBe("cancelled")
  expect(#sim.errors):toBe(0)
end)
