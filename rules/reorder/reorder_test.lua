-- A 4-column grid of 100 x 100 cells: cover p2 p3 p4 on the first row, p5 p6 below.
local function slides()
  local function page(id) return { id = id, representations = { { "com.example.page", id } } } end
  return scenario {
    board = { targets = {
      { id = "slides", type = "reorder.grid", frame = { 0, 0, 400, 200 },
        data = { columns = 4, cellWidth = 100, cellHeight = 100, pinned = { "cover" } },
        items = { page("cover"), page("p2"), page("p3"), page("p4"), page("p5"), page("p6") } },
      { id = "drafts", type = "reorder.grid", frame = { 0, 300, 400, 100 },
        data = { columns = 4, cellWidth = 100, cellHeight = 100 }, items = { page("d1") } },
    } },
  }
end

test("moving a page forward lands in the gap under the pointer, not one past it", function()
  local sim = slides()
  local drag = sim:drag({ "p2" })
  -- x = 300 is the boundary between p3 and p4: gap 4.
  expect(drag:at(300, 50)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p3", "p2", "p4", "p5", "p6" })
end)

test("moving a page backward lands in the gap under the pointer", function()
  local sim = slides()
  local drag = sim:drag({ "p5" })
  expect(drag:at(110, 50)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p5", "p2", "p3", "p4", "p6" })
end)

test("dropping a page on the gap right after itself changes nothing", function()
  local sim = slides()
  local drag = sim:drag({ "p3" })
  expect(drag:at(290, 40)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p2", "p3", "p4", "p5", "p6" })
end)

test("the live preview follows the pointer; each gap is read in the list as previewed", function()
  local sim = slides()
  local drag = sim:drag({ "p2" })
  drag:at(350, 50)
  drag:at(150, 150)
  drag:at(250, 50)
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p3", "p4", "p2", "p5", "p6" })
end)

test("a cancelled drag leaves the grid as it was, after any preview", function()
  local sim = slides()
  local drag = sim:drag({ "p2" })
  drag:at(350, 150)
  expect(drag:cancel()):toBe("cancelled")
  expect(sim:items("slides")):toEqual({ "cover", "p2", "p3", "p4", "p5", "p6" })
  local dropped = sim:drag({ "p2" })
  dropped:at(350, 150)
  expect(dropped:at(900, 900)):toBe("cancel")
  expect(dropped:drop()):toBe("cancelled")
  expect(sim:items("slides")):toEqual({ "cover", "p2", "p3", "p4", "p5", "p6" })
end)

test("the cover cannot be dragged and nothing can go before it", function()
  local sim = slides()
  local cover = sim:drag({ "cover" })
  expect(cover.refused):toEqual({ "cover" })
  expect(cover:at(250, 50)):toBe("cancel")
  expect(cover:drop()):toBe("refused")
  local drag = sim:drag({ "p3" })
  expect(drag:at(10, 50)):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("slides")):toEqual({ "cover", "p2", "p3", "p4", "p5", "p6" })
end)

test("dragging the cover with other pages leaves the cover behind", function()
  local sim = slides()
  local drag = sim:drag({ "cover", "p2" })
  expect(drag.refused):toEqual({ "cover" })
  expect(drag:at(350, 50)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p3", "p4", "p2", "p5", "p6" })
end)

test("two pages dragged together stay together and in order", function()
  local sim = slides()
  local drag = sim:drag({ "p5", "p6" })
  expect(drag:at(100, 50)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p5", "p6", "p2", "p3", "p4" })
end)

test("an image from another app becomes a page at the gap, a page from another grid is copied", function()
  local sim = slides()
  local drag = sim:drag({ { id = "photo", representations = { { "public.png", "..." } } } })
  expect(drag:at(100, 150)):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("slides")):toEqual({ "cover", "p2", "p3", "p4", "p5", "photo", "p6" })
  local draft = sim:drag({ "d1" })
  expect(draft:at(200, 50)):toBe("copy")
  expect(draft:drop()):toBe("performed")
  expect(sim:items("drafts")):toEqual({ "d1" })
  expect(sim:items("slides")[3]):toBe("d1-copy1")
end)
