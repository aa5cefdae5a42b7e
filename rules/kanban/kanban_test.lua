-- One column per stage, 60-point card rows; the host turns the pointer into a gap. A
-- board card keeps its title and assignee as item data.
local function card(id, assignee)
  return {
    id = id, representations = { { "com.example.kanban-card", id } }, data = { title = id, assignee = assignee },
  }
end

local function board(locked)
  local function column(index, stage, wip, items)
    return { id = stage, type = "kanban.column", frame = { (index - 1) * 200, 0, 200, 600 },
      itemExtent = 60, axis = "vertical", data = { stage = stage, wip = wip, locked = locked == stage },
      items = items }
  end
  return scenario { board = { targets = {
    column(1, "backlog", nil, { card("idea"), card("spike", "bo") }),
    column(2, "todo", 4, { card("login", "ana"), card("logout") }),
    column(3, "doing", 3, { card("search", "ana"), card("export"), card("pdf", "cy") }),
    column(4, "review", 1, {}),
    column(5, "done", nil, {}),
  } } }
end

test("cards in a locked column cannot be dragged; the others in the same drag can", function()
  local sim = board("doing")
  local refused = sim:drag({ "search" })
  expect(refused.refused):toEqual({ "search" })
  expect(refused:over("review")):toBe("cancel")
  expect(refused:drop()):toBe("refused")
  local drag = sim:drag({ "export", "logout" })
  expect(drag.refused):toEqual({ "export" })
  expect(drag:over("doing")):toBe("forbidden") -- doing is locked for drags out, and at its limit for drops in
  expect(drag:over("backlog")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("backlog")):toEqual({ "idea", "spike", "logout" })
  expect(sim:items("doing")):toEqual({ "search", "export", "pdf" })
end)

test("an assigned card moves on from doing to review", function()
  local sim = board()
  local drag = sim:drag({ "search" })
  expect(drag:over("review")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("review")):toEqual({ "search" })
  expect(sim:items("doing")):toEqual({ "export", "pdf" })
end)

test("no jump from backlog straight to done, nor from todo to review", function()
  local sim = board()
  local drag = sim:drag({ "spike" })
  expect(drag:over("done")):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("backlog")):toEqual({ "idea", "spike" })
  expect(sim:drag({ "login" }):over("review")):toBe("forbidden")
  expect(sim:drag({ "login" }):over("doing")):toBe("forbidden")
  expect(sim:drag({ "login" }):over("backlog")):toBe("move")
end)

test("a card without an assignee cannot enter review", function()
  local sim = board()
  local drag = sim:drag({ "export" })
  expect(drag:over("review")):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("doing")):toEqual({ "search", "export", "pdf" })
  expect(sim.errors):toEqual({})
end)

test("a full column refuses new cards but still reorders its own", function()
  local sim = board()
  local drag = sim:drag({ "logout" })
  expect(drag:over("doing")):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  local reorder = sim:drag({ "pdf" })
  expect(reorder:at(450, 5)):toBe("move")
  expect(reorder:drop()):toBe("performed")
  expect(sim:items("doing")):toEqual({ "pdf", "search", "export" })
end)

test("every dragged card counts against the limit", function()
  local sim = board()
  expect(sim:drag({ "search", "pdf" }):over("review")):toBe("forbidden")
  local one = sim:drag({ "pdf" })
  expect(one:over("review")):toBe("move")
  expect(one:drop()):toBe("performed")
  expect(sim:items("review")):toEqual({ "pdf" })
end)

test("cards dropped into a column land at the gap under the pointer, in order", function()
  local sim = board()
  local drag = sim:drag({ "idea", "spike" })
  expect(drag:at(300, 65)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("todo")):toEqual({ "login", "idea", "spike", "logout" })
end)

test("text from another app becomes a backlog card and nowhere else", function()
  local sim = board()
  local note = { id = "bug-report", representations = { { "public.utf8-plain-text", "Crash on save" } } }
  local drag = sim:drag({ note })
  expect(drag:over("todo")):toBe("forbidden")
  expect(drag:over("backlog")):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("backlog")):toEqual({ "idea", "spike", "bug-report" })
end)

test("a card with a broken payload is forbidden, not a rule error", function()
  local sim = board()
  local broken = { id = "broken", representations = { { "com.example.kanban-card", "{title" } } }
  local drag = sim:drag({ broken })
  expect(drag:over("backlog")):toBe("forbidden")
  expect(sim.errors):toEqual({})
end)
