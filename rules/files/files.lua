-- Files: a file manager. Folders are nested targets; a folder's row is an item that
-- opens its folder's target (`opens` in the scenario), so moving the row moves the
-- folder, with everything in it, and the host never lets a folder into itself. A closed
-- folder (`collapsed`) takes no drops until the pointer rests on its row for half a
-- second: then it springs open for the rest of the drag. Like the Finder: a drag
-- moves within a volume and copies across volumes, option forces a copy and command a
-- move, read-only folders take nothing (and what is dragged out of them is copied), a
-- folder cannot go into itself or any folder inside it, a name can be used only once
-- per folder, and the trash takes whatever can be moved. Refusals print their reason.
-- A folder shown as a list (an item extent along an axis) tells a drop *into* a folder
-- row from a drop *between* rows: over the middle third of a folder's row (`info.edge`
-- is "center") the items go into that folder; anywhere else they go to the gap, which
-- reorders rows within the list. Dragged into another app (Mail, a chat), files are
-- always copied: the source keeps them.

-- The volume a folder is on: its own, or the nearest ancestor's.
local function volumeOf(folder)
  while folder do
    if folder.data.volume then return folder.data.volume end
    folder = folder.parent
  end
  return nil
end

local function isReadOnly(folder)
  return folder ~= nil and folder.data.readOnly == true
end

-- True when `folder` is the folder `item` stands for, or lies inside it.
local function isInside(folder, item)
  local opened = item.opens
  if opened == nil then return false end
  while folder do
    if folder == opened then return true end
    folder = folder.parent
  end
  return false
end

-- How long a closed folder's row must hold the pointer before the folder springs open.
local SPRING_LOADING_DELAY = 500

-- Milliseconds the pointer has rested on the row it is over now. The list remembers,
-- for this drag only, which row the pointer was over and since when (`info.hoverTime`
-- counts from entering the list, not the row).
local function restingTime(info, folder)
  local row = info.over and info.over.id or ""
  local resting = folder.data.resting
  if resting == nil or resting.row ~= row then
    folder:setForDrag("resting", { row = row, since = info.hoverTime })
    return 0
  end
  return info.hoverTime - resting.since
end

-- The entry of `folder` with the name `item` would take there. A copy clashes with its
-- own original; a move within the folder keeps the name it already has.
local function nameClash(folder, item, operation)
  if item.container == folder and operation == "move" then return nil end
  for _, entry in ipairs(folder.items) do
    local isOther = entry ~= item or operation == "copy"
    if isOther and entry.name ~= nil and entry.name == item.name then return entry end
  end
  return nil
end

-- The operation `info` proposes by source, volumes and modifiers, like the Finder.
local function preferredOperation(info, folder)
  if info.source == nil or info.modifiers.option then return "copy" end
  if info.modifiers.command then return "move" end
  local source = info.source
  if isReadOnly(source) or volumeOf(source) ~= volumeOf(folder) then return "copy" end
  return "move"
end

-- The operation a drop of `info.items` into `folder` performs, or nil and the reason.
local function operationFor(info, folder)
  if isReadOnly(folder) then return nil, folder.id .. " is read-only" end
  local operation = preferredOperation(info, folder)
  for _, item in ipairs(info.items) do
    if isInside(folder, item) then return nil, "cannot put " .. item.id .. " inside itself" end
    local clash = nameClash(folder, item, operation)
    if clash then return nil, folder.id .. " already has an item named " .. clash.name end
  end
  return operation
end

-- The folder a drop into `folder` lands in: the folder whose row is under the pointer's
-- middle third, else `folder` itself.
local function destinationOf(info, folder)
  if info.over == nil or info.edge ~= "center" then return folder end
  return info.over.opens or folder
end

local function refuseOr(operation, reason)
  if operation == nil then
    print(reason)
    return "forbidden"
  end
  return operation
end

return {
  ["files.folder"] = {
    accepts = { "public.file-url", "public.folder" },

    dropUpdated = function(info, folder)
      local destination = destinationOf(info, folder)
      local operation = refuseOr(operationFor(info, destination))
      -- Resting on a closed folder's row opens it, as the Finder's spring-loaded folders do.
      local resting = restingTime(info, folder)
      if destination ~= folder and destination.collapsed and resting >= SPRING_LOADING_DELAY then
        return { operation = operation, open = true }
      end
      return operation
    end,

    performDrop = function(info, folder)
      local destination = destinationOf(info, folder)
      -- Into a folder row the items are appended; between rows they go to the gap.
      local gap = destination == folder and info.index or nil
      local arriving = {}
      for _, item in ipairs(info.items) do
        if info.operation == "copy" and item.container then
          arriving[#arriving + 1] = item:copy()
        elseif item.container ~= destination or gap ~= nil then
          arriving[#arriving + 1] = item
        end
      end
      destination:insert(arriving, gap)
      return true
    end,

    dragOperations = function(info, _folder)
      if info.outside then return { "copy" } end
      return { "move", "copy" }
    end,
  },

  ["files.trash"] = {
    accepts = { "public.file-url", "public.folder" },

    dropUpdated = function(info, _trash)
      if info.source == nil then return refuseOr(nil, "only items on this machine can be trashed") end
      if isReadOnly(info.source) then
        return refuseOr(nil, info.source.id .. " is read-only")
      end
      return "move"
    end,

    performDrop = function(info, trash)
      trash:insert(info.items, nil)
      return true
    end,
  },
}
