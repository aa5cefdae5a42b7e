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

-- The same stages under a strip of column headers, 120 points each: dragging a header
-- along the strip reorders the columns.
local function boardWithStrip()
  local function header(stage)
    return { id = stage .. "-header", name = stage, opens = stage,
      representations = { { "com.example.kanban-column", stage } } }
  end
  local function column(index, stage, items)
    return { id = stage, type = "kanban.column", frame = { (index - 1) * 120, 40, 120, 600 },
      itemExtent = 60, axis = "vertical", data = { stage = stage }, items = items }
  end
  return scenario { board = { targets = {
    { id = "strip", type = "kanban.strip", frame = { 0, 0, 600, 40 }, itemExtent = 120, axis = "horizontal",
      items = { header("backlog"), header("todo"), header("doing"), header("review"), header("done") } },
    column(1, "backlog", { card("idea") }),
    column(2, "todo", { card("login", "ana") }),
    column(3, "doing", {}),
    column(4, "review", {}),
    column(5, "done", {}),
  } } }
end

test("dragging a column's header along the strip reorders the columns, each with its cards", function()
  local sim = boardWithStrip()
  local drag = sim:drag({ "done-header" })
  -- The gap before the second header (x 120) puts done second.
  expect(drag:at(125, 20)):toBe("move")
  expect(drag.lastStep.index):toBe(2)
  expect(drag.lastStep.announcement):toBe("done: second of 5 columns")
  expect(drag:drop()):toBe("performed")
  expect(drag.lastStep.announcement):toBe("Moved done to second of 5 columns.")
  expect(sim:items("strip")):toEqual({ "backlog-header", "done-header", "todo-header", "doing-header",
    "review-header" })
  expect(sim:target("done").parent):toBe("strip")
  expect(sim:items("todo")):toEqual({ "login" })
end)

test("cards do not go into the strip, and headers do not go into a column", function()
  local sim = boardWithStrip()
  local cardDrag = sim:drag({ "idea" })
  expect(cardDrag:over("strip")):toBe("cancel")
  cardDrag:cancel()
  local headerDrag = sim:drag({ "todo-header" })
  expect(headerDrag:over("doing")):toBe("cancel")
  expect(headerDrag:over("strip", { index = 1 })):toBe("move")
  expect(headerDrag:drop()):toBe("performed")
  expect(sim:items("strip")[1]):toBe("todo-header")
end)

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

test("a drag that allows only copy cannot take a card: it is forbidden, not shown as a copy that then fails", function()
  local sim = board()
  local drag = sim:drag({ "spike" }, { allowedOperations = { "copy" } })
  expect(drag:over("todo")):toBe("forbidden")
  expect(drag.lastStep.printed):toEqual({ "a card moves; it is never copied" })
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("backlog")):toEqual({ "idea", "spike" })
end)
