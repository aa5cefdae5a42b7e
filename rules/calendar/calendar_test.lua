local function week()
  return scenario {
    types = { { id = "com.example.schedule-item", conformsTo = { "public.data" } } },
    board = { targets = {
      { id = "day-11", type = "calendar.day", frame = { 0, 0, 100, 100 }, data = { past = true } },
      { id = "day-12", type = "calendar.day", frame = { 100, 0, 100, 100 }, items = {
        { id = "standup", name = "Standup", representations = {
          { "com.example.schedule-item", "{\"t\":1}" }, { "public.plain-text", "Standup" } } },
        { id = "review", name = "Review", representations = { { "com.example.schedule-item", "{}" } } },
      } },
      { id = "day-13", type = "calendar.day", frame = { 200, 0, 100, 100 } },
      { id = "day-14", type = "calendar.day", frame = { 300, 0, 100, 100 }, data = { holiday = true } },
      { id = "day-15", type = "calendar.day", frame = { 400, 0, 100, 100 }, data = { capacity = 1 }, items = {
        { id = "lunch", representations = { { "com.example.schedule-item", "{}" } } } } },
    } },
  }
end

test("an item moves to an empty day without a placeholder", function()
  local sim = week()
  local drag = sim:drag({ "standup" })
  expect(drag:over("day-13")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("day-13")):toEqual({ "standup" })
  expect(sim:items("day-12")):toEqual({ "review" })
end)

test("past days are forbidden and nothing moves", function()
  local sim = week()
  local drag = sim:drag({ "standup" })
  expect(drag:over("day-11")):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("day-12")):toEqual({ "standup", "review" })
end)

test("option-drag copies and leaves the original", function()
  local sim = week()
  local drag = sim:drag({ "standup" }, { modifiers = { "option" } })
  expect(drag:over("day-13")):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("day-12")):toEqual({ "standup", "review" })
  expect(#sim:items("day-13")):toBe(1)
  expect(sim:items("day-13")[1]):toContain("standup-copy")
end)

test("holidays refuse the drop", function()
  local sim = week()
  local drag = sim:drag({ "standup" })
  expect(drag:over("day-14")):toBe("cancel")
  expect(drag:drop()):toBe("cancelled")
end)

test("a full day is forbidden", function()
  local sim = week()
  local drag = sim:drag({ "standup" })
  expect(drag:over("day-15")):toBe("forbidden")
end)

test("plain text from another app is not a schedule item", function()
  local sim = week()
  local drag = sim:drag({ { id = "note", representations = { { "public.plain-text", "hello" } } } })
  expect(drag:over("day-13")):toBe("cancel")
  expect(sim.errors):toEqual({})
end)

test("items dropped together keep their order at the index", function()
  local sim = week()
  local drag = sim:drag({ "standup", "review" })
  expect(drag:over("day-13", { index = 1 })):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("day-13")):toEqual({ "standup", "review" })
end)

test("a drop at the index the pointer names reorders within the day", function()
  local sim = week()
  local drag = sim:drag({ "review" })
  expect(drag:over("day-12", { index = 1 })):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("day-12")):toEqual({ "review", "standup" })
end)
