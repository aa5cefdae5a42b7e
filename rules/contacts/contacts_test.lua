-- Two lists of 40-point rows; the host turns the pointer into an insertion gap.
local function ana() return { "com.example.contact", '{"givenName":"Ana","familyName":"Lima","phone":"555-0101"}' } end

local function book()
  return scenario {
    board = { targets = {
      { id = "all", type = "contacts.list", frame = { 0, 0, 200, 400 }, itemExtent = 40, axis = "vertical",
        items = {
          { id = "ana", name = "Ana Lima", representations = { ana(), { "public.plain-text", "555-0101" } } },
          { id = "bo", name = "Bo Chen", representations = {
            { "com.example.contact", '{"givenName":"Bo","familyName":"Chen","phone":"555-0102"}' } } },
          { id = "cy", name = "Cy Diaz", representations = {
            { "com.example.contact", '{"givenName":"Cy","phone":"555-0103"}' } } },
        } },
      { id = "favorites", type = "contacts.list", frame = { 300, 0, 200, 400 }, itemExtent = 40, axis = "vertical" },
    } },
  }
end

local function vcard(id, text) return { id = id, representations = { { "public.vcard", text } } } end

test("a contact moves to the gap nearest the pointer", function()
  local sim = book()
  local drag = sim:drag({ "cy" })
  expect(drag:at(100, 5)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "cy", "ana", "bo" })
end)

test("a vCard from another app is inserted at the gap", function()
  local sim = book()
  local drag = sim:drag({ vcard("dee", "BEGIN:VCARD\nVERSION:3.0\nFN:Dee Ito\nTEL;TYPE=cell:555-0199\nEND:VCARD") })
  expect(drag:at(100, 42)):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "ana", "dee", "bo", "cy" })
end)

test("several contacts dropped together keep their order at the gap", function()
  local sim = book()
  local drag = sim:drag({
    vcard("dee", "BEGIN:VCARD\nFN:Dee Ito\nEND:VCARD"),
    vcard("eve", "BEGIN:VCARD\nFN:Eve Park\nEND:VCARD"),
  })
  expect(drag:at(100, 42)):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "ana", "dee", "eve", "bo", "cy" })
end)

test("plain text is a proxy: trimmed, it becomes a contact in an empty list", function()
  local sim = book()
  local drag = sim:drag({ { id = "note", representations = { { "public.utf8-plain-text", "  Eve Park " } } } })
  expect(drag:over("favorites")):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("favorites")):toEqual({ "note" })
end)

test("a vCard without a name and blank text are refused before the drop", function()
  local sim = book()
  local nameless = sim:drag({ vcard("x", "BEGIN:VCARD\nTEL:555-0000\nEND:VCARD") })
  expect(nameless:over("all")):toBe("cancel")
  expect(nameless:drop()):toBe("cancelled")
  local blank = sim:drag({ { id = "blank", representations = { { "public.plain-text", "   " } } } })
  expect(blank:over("all")):toBe("cancel")
  expect(sim:items("all")):toEqual({ "ana", "bo", "cy" })
  expect(sim.errors):toEqual({})
end)

test("a vCard for someone already in the list moves them instead of adding a duplicate", function()
  local sim = book()
  local drag = sim:drag({ vcard("ana-card", "BEGIN:VCARD\nFN:Ana Lima\nTEL:555-0101\nEND:VCARD") })
  expect(drag:at(100, 119)):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "bo", "cy", "ana" })
end)

test("each item is read in its own fidelity order, best representation first", function()
  local sim = book()
  -- Contact first: this is Ana (by phone), already in the list, so she moves to the gap.
  local contactFirst = sim:drag({ { id = "a2", representations = { ana(), { "public.plain-text", "Zed" } } } })
  contactFirst:at(100, 75)
  expect(contactFirst:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "bo", "ana", "cy" })
  -- Text first: the same payloads read as a new contact named Zed, inserted at the gap.
  local textFirst = sim:drag({ { id = "zed", representations = { { "public.plain-text", "Zed" }, ana() } } })
  textFirst:at(100, 75)
  expect(textFirst:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "bo", "ana", "zed", "cy" })
end)

test("option-drag between lists copies; a plain drag moves", function()
  local sim = book()
  local copy = sim:drag({ "bo" }, { modifiers = { "option" } })
  copy:over("favorites")
  copy:drop()
  expect(sim:items("all")):toEqual({ "ana", "bo", "cy" })
  local move = sim:drag({ "cy" })
  expect(move:over("favorites")):toBe("move")
  move:drop()
  expect(sim:items("all")):toEqual({ "ana", "bo" })
  expect(sim:items("favorites")):toEqual({ "bo-copy1", "cy" })
end)

test("a malformed contact payload is refused, not a rule error", function()
  local sim = book()
  local drag = sim:drag({ { id = "broken", representations = { { "com.example.contact", "{givenName:" } } } })
  expect(drag:over("all")):toBe("cancel")
  expect(sim.errors):toEqual({})
end)

-- A list whose contacts carry a vCard too, as the seed's Contact exports one.
local function exportingBook(shared)
  local function contact(id, name)
    return { id = id, name = name, representations = {
      { "com.example.contact", '{"givenName":"' .. name .. '"}' },
      { "public.vcard", "BEGIN:VCARD\nVERSION:3.0\nFN:" .. name .. "\nEND:VCARD" },
    } }
  end
  return scenario { board = { targets = {
    { id = "all", type = "contacts.list", frame = { 0, 0, 200, 400 }, itemExtent = 40, axis = "vertical",
      data = { shared = shared }, items = { contact("ana", "Ana"), contact("bo", "Bo") } },
  } } }
end

test("a contact copied into another app that takes vCards stays in the list", function()
  local sim = exportingBook()
  local drag = sim:drag({ "ana" })
  expect(drag:outside({ accepts = { "public.vcard" }, operation = "copy" })):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "ana", "bo" })
end)

test("a contact moved into another app is removed from the list once the drop is done", function()
  local sim = exportingBook()
  local drag = sim:drag({ "ana" })
  expect(drag:at(100, 70)):toBe("move")
  expect(drag:outside({ accepts = "public.vcard", operation = "move" })):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "bo" })
  expect(#sim.errors):toBe(0)
end)

test("a move out removes only what the other app took; a contact it cannot take stays", function()
  local sim = scenario { board = { targets = {
    { id = "all", type = "contacts.list", frame = { 0, 0, 200, 400 }, itemExtent = 40, axis = "vertical",
      items = {
        { id = "ana", representations = { { "public.vcard", "BEGIN:VCARD\nFN:Ana\nEND:VCARD" } } },
        { id = "bo", representations = { { "com.example.contact", '{"givenName":"Bo"}' } } },
      } },
  } } }
  local drag = sim:drag({ "ana", "bo" })
  expect(drag:outside({ accepts = "public.vcard", operation = "move" })):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "bo" })
  expect(#sim.errors):toBe(0)
end)

test("a move out that is cancelled, or that comes back to the list, removes nothing", function()
  local sim = exportingBook()
  local drag = sim:drag({ "ana" })
  expect(drag:outside({ accepts = "public.vcard", operation = "move" })):toBe("move")
  expect(drag:cancel()):toBe("cancelled")
  expect(sim:items("all")):toEqual({ "ana", "bo" })
  local back = sim:drag({ "ana" })
  back:outside({ accepts = "public.vcard", operation = "move" })
  expect(back:at(100, 75)):toBe("move")
  expect(back:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "bo", "ana" })
end)

test("an app that takes no representation of a contact is forbidden", function()
  local sim = exportingBook()
  local drag = sim:drag({ "ana" })
  expect(drag:outside({ accepts = { "public.image" } })):toBe("forbidden")
  expect(drag:drop()):toBe("cancelled")
  expect(sim:items("all")):toEqual({ "ana", "bo" })
end)

test("a shared directory lets contacts be copied out but not moved out", function()
  local sim = exportingBook(true)
  local drag = sim:drag({ "ana" })
  expect(drag:at(100, 70)):toBe("move")
  expect(drag:outside({ accepts = "public.vcard", operation = "move" })):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("all")):toEqual({ "ana", "bo" })
end)
