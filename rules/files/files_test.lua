-- Two volumes. On "disk": home > projects > 2026, and a read-only system folder.
-- On "usb": a stick folder. And a trash.
local function file(id, name)
  return { id = id, name = name, representations = { { "public.file-url", "file:///" .. name } } }
end
-- A folder's row: it opens the folder's target, which is nested where the row is.
local function folder(id, opens)
  return { id = id, name = opens, opens = opens, representations = { { "public.folder", opens } } }
end

local function machine()
  return scenario { board = { targets = {
    { id = "home", type = "files.folder", frame = { 0, 0, 600, 400 }, data = { volume = "disk" },
      items = { file("notes", "notes.txt"), folder("projects-folder", "projects") } },
    { id = "projects", type = "files.folder", parent = "home", frame = { 300, 0, 300, 300 },
      items = { file("plan", "plan.md"), folder("y2026-folder", "2026") } },
    { id = "2026", type = "files.folder", parent = "projects", frame = { 450, 0, 150, 150 },
      items = { file("draft", "notes.txt") } },
    { id = "system", type = "files.folder", frame = { 0, 400, 300, 100 },
      data = { volume = "disk", readOnly = true }, items = { file("hosts", "hosts") } },
    { id = "stick", type = "files.folder", frame = { 600, 0, 200, 200 }, data = { volume = "usb" } },
    { id = "trash", type = "files.trash", frame = { 700, 400, 100, 100 } },
  } } }
end

test("a file moves within a volume", function()
  local sim = machine()
  local drag = sim:drag({ "notes" })
  expect(drag:over("projects")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("home")):toEqual({ "projects-folder" })
  expect(sim:items("projects")):toEqual({ "plan", "y2026-folder", "notes" })
end)

test("a file is copied across volumes, unless command forces a move", function()
  local sim = machine()
  local copy = sim:drag({ "plan" })
  expect(copy:over("stick")):toBe("copy")
  expect(copy:drop()):toBe("performed")
  expect(sim:items("stick")):toEqual({ "plan-copy1" })
  expect(sim:items("projects")):toEqual({ "plan", "y2026-folder" })
  local move = sim:drag({ "notes" }, { modifiers = { "command" } })
  expect(move:over("stick")):toBe("move")
  move:drop()
  expect(sim:items("stick")):toEqual({ "plan-copy1", "notes" })
  expect(sim:items("home")):toEqual({ "projects-folder" })
end)

test("option forces a copy within a volume", function()
  local sim = machine()
  local drag = sim:drag({ "plan" })
  expect(drag:over("home")):toBe("move")
  expect(drag:modifiers({ "option" })):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("projects")):toEqual({ "plan", "y2026-folder" })
  expect(sim:items("home")):toEqual({ "notes", "projects-folder", "plan-copy1" })
end)

test("a read-only folder takes nothing, and what leaves it is copied", function()
  local sim = machine()
  local into = sim:drag({ "plan" })
  expect(into:over("system")):toBe("forbidden")
  expect(into:drop()):toBe("cancelled")
  local out = sim:drag({ "hosts" })
  expect(out:over("stick")):toBe("copy")
  expect(out:over("projects")):toBe("copy")
  out:drop()
  expect(sim:items("system")):toEqual({ "hosts" })
  expect(sim:items("projects")):toEqual({ "plan", "y2026-folder", "hosts-copy1" })
end)

test("a folder cannot go into itself or any folder inside it", function()
  local sim = machine()
  local drag = sim:drag({ "projects-folder" })
  expect(drag:over("projects")):toBe("forbidden")
  expect(drag:over("2026")):toBe("forbidden")
  expect(drag:over("stick")):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("stick")):toEqual({ "projects-folder-copy1" })
  local sibling = sim:drag({ "y2026-folder" })
  expect(sibling:over("home")):toBe("move")
end)

test("a folder's row moves the folder with everything in it", function()
  local sim = machine()
  local drag = sim:drag({ "y2026-folder" })
  expect(drag:over("home")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("home")):toEqual({ "notes", "projects-folder", "y2026-folder" })
  expect(sim:target("2026").parent):toBe("home")
  expect(sim:items("2026")):toEqual({ "draft" })
  -- Now 2026 is no longer inside projects: projects may go into it.
  local into = sim:drag({ "projects-folder" })
  expect(into:over("2026")):toBe("move")
  expect(into:drop()):toBe("performed")
  expect(sim:target("projects").parent):toBe("2026")
end)

test("a name is used once per folder, also by a copy into the same folder", function()
  local sim = machine()
  expect(sim:drag({ "draft" }):over("home")):toBe("forbidden")
  local copy = sim:drag({ "plan" }, { modifiers = { "option" } })
  expect(copy:over("projects")):toBe("forbidden")
  local stay = sim:drag({ "plan" })
  expect(stay:over("projects")):toBe("move")
  expect(stay:drop()):toBe("performed")
  expect(sim:items("projects")):toEqual({ "plan", "y2026-folder" })
end)

test("the trash takes what can be moved, not read-only or foreign items", function()
  local sim = machine()
  local drag = sim:drag({ "notes", "projects-folder" })
  expect(drag:over("trash")):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("trash")):toEqual({ "notes", "projects-folder" })
  expect(sim:items("home")):toEqual({})
  expect(sim:drag({ "hosts" }):over("trash")):toBe("forbidden")
  expect(sim:drag({ file("mail", "mail.eml") }):over("trash")):toBe("forbidden")
end)

test("a file from another app is copied in", function()
  local sim = machine()
  local drag = sim:drag({ file("download", "photo.png") })
  expect(drag:over("2026")):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("2026")):toEqual({ "draft", "download" })
end)

-- A folder shown as a list of 40-point rows: a.txt, the archive folder's row, b.txt.
local function listView()
  return scenario { board = { targets = {
    { id = "docs", type = "files.folder", frame = { 0, 0, 300, 200 }, data = { volume = "disk" },
      itemExtent = 40, axis = "vertical",
      items = { file("a", "a.txt"), folder("archive-folder", "archive"), file("b", "b.txt") } },
    { id = "archive", type = "files.folder", frame = { 400, 0, 100, 100 }, data = { volume = "disk" } },
  } } }
end

test("over the middle third of a folder's row, files go into that folder", function()
  local sim = listView()
  local drag = sim:drag({ "b" })
  -- The archive row spans y 40 to 80; its middle third is 53.3 to 66.7.
  expect(drag:at(100, 60)):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("docs")):toEqual({ "a", "archive-folder" })
  expect(sim:items("archive")):toEqual({ "b" })
end)

test("over a row's first or last third, files go between rows and reorder the list", function()
  local sim = listView()
  local before = sim:drag({ "b" })
  expect(before:at(100, 45)):toBe("move")
  expect(before:drop()):toBe("performed")
  expect(sim:items("docs")):toEqual({ "a", "b", "archive-folder" })
  local after = sim:drag({ "a" })
  -- The last third of the archive row (now the third row, y 80 to 120): the gap after it.
  expect(after:at(100, 115)):toBe("move")
  expect(after:drop()):toBe("performed")
  expect(sim:items("docs")):toEqual({ "b", "archive-folder", "a" })
  expect(sim:items("archive")):toEqual({})
end)

test("a folder cannot be dropped into its own row, and a file's row is not a folder", function()
  local sim = listView()
  local drag = sim:drag({ "archive-folder" })
  expect(drag:at(100, 60)):toBe("forbidden")
  local onFile = sim:drag({ "b" })
  expect(onFile:at(100, 20)):toBe("move")
  expect(onFile:drop()):toBe("performed")
  expect(sim:items("docs")):toEqual({ "a", "b", "archive-folder" })
end)

-- The same list, with the archive folder closed: its contents show only once the
-- pointer has rested on its row for half a second.
local function closedArchive()
  return scenario { board = { targets = {
    { id = "docs", type = "files.folder", frame = { 0, 0, 300, 200 }, data = { volume = "disk" },
      itemExtent = 40, axis = "vertical",
      items = { file("a", "a.txt"), folder("archive-folder", "archive"), file("b", "b.txt") } },
    { id = "archive", type = "files.folder", frame = { 400, 0, 100, 100 }, data = { volume = "disk" },
      collapsed = true, items = { file("old", "old.txt") } },
  } } }
end

test("a closed folder springs open after the pointer rests on its row for half a second", function()
  local sim = closedArchive()
  local drag = sim:drag({ "b" })
  -- The archive itself is closed: the pointer over its frame is over nothing.
  expect(drag:over("archive")):toBe("cancel")
  expect(drag:at(100, 60)):toBe("move")
  expect(drag:wait(300)):toBe("move")
  expect(drag.lastStep.springLoaded):toEqual({})
  expect(drag:wait(300)):toBe("move")
  expect(drag.lastStep.springLoaded):toEqual({ "archive" })
  -- Open now: the archive takes the file at a gap of its own.
  expect(drag:over("archive", { index = 1 })):toBe("move")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("archive")):toEqual({ "b", "old" })
  expect(sim:target("archive").collapsed):toBe(true)
end)

test("moving to another row starts the rest afresh, so passing over a closed folder does not open it", function()
  local sim = closedArchive()
  local drag = sim:drag({ "b" })
  expect(drag:at(100, 20)):toBe("move")
  expect(drag:wait(400)):toBe("move")
  expect(drag:at(100, 60)):toBe("move")
  expect(drag:wait(400)):toBe("move")
  expect(drag.lastStep.springLoaded):toEqual({})
  expect(drag:over("archive")):toBe("cancel")
  drag:cancel()
end)

test("files dragged into another app are copied, and the source keeps them", function()
  local sim = listView()
  local drag = sim:drag({ "a" })
  expect(drag:outside({ accepts = { "public.file-url" }, operation = "move" })):toBe("copy")
  expect(drag:drop()):toBe("performed")
  expect(sim:items("docs")):toEqual({ "a", "archive-folder", "b" })
  local folderOut = sim:drag({ "archive-folder" })
  expect(folderOut:outside({ accepts = { "public.file-url" } })):toBe("forbidden")
end)
