local function box(data)
  return scenario { board = { targets = {
    { id = "box", type = "fruitbox", frame = { 0, 0, 150, 150 }, data = data or {} },
  } } }
end

local function fruit(id, text)
  return { id = id, representations = { { "public.utf8-plain-text", text } } }
end

test("hovering tints the box while the drag goes on, and the tint ends with it", function()
  local sim = box()
  local drag = sim:drag({ fruit("apple", "🍎") })
  expect(drag:over("box")):toBe("copy")
  expect(drag:target("box").data.hover):toBe(true)
  expect(drag:cancel()):toBe("cancelled")
  expect(sim:target("box").data.hover):toBeNil()
end)

test("a drop keeps the colour, not the tint: performDrop has nothing to clean up", function()
  local sim = box()
  local drag = sim:drag({ fruit("apple", "🍎") })
  drag:over("box")
  expect(drag:drop()):toBe("performed")
  expect(sim:target("box").data):toEqual({ color = "red" })
end)

test("a dropped apple colours the box red and lands in it", function()
  local sim = box()
  local drag = sim:drag({ fruit("apple", "🍎") })
  expect(drag:over("box")):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:target("box").data.color):toBe("red")
  expect(sim:items("box")):toEqual({ "apple" })
end)

test("after a banana the box forbids further drops", function()
  local sim = box()
  local drag = sim:drag({ fruit("banana", "🍌🍌") })
  drag:over("box")
  expect(drag:drop()):toBe("performed")
  expect(sim:target("box").data.hasBanana):toBe(true)
  local second = sim:drag({ fruit("apple", "🍎") })
  expect(second:over("box")):toBe("forbidden")
  expect(second:drop()):toBe("cancelled")
  expect(sim:items("box")):toEqual({ "banana" })
end)

test("unknown text paints the box gray", function()
  local sim = box()
  local drag = sim:drag({ fruit("rock", "rock") })
  drag:over("box")
  drag:drop()
  expect(sim:target("box").data.color):toBe("gray")
end)

test("an image is not accepted: the proposal is cancel", function()
  local sim = box()
  local drag = sim:drag({ { id = "photo", representations = { { "public.png", "..." } } } })
  expect(drag:over("box")):toBe("cancel")
  expect(sim.errors):toEqual({})
end)

test("hover is cleared by dropExited when the pointer leaves", function()
  local sim = box()
  local drag = sim:drag({ fruit("apple", "🍎") })
  drag:over("box")
  expect(drag:at(500, 500)):toBe("cancel")
  expect(drag:target("box").data.hover):toBeNil()
  expect(drag:drop()):toBe("cancelled")
  expect(sim:target("box").data.hover):toBeNil()
end)
