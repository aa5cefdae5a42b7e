-- Files: a file manager. Folders are nested targets; a dragged folder is an item whose
-- public.folder payload names the folder target it opens (targets are fixed, so moving
-- a folder's item does not move the folder target). Like the Finder: a drag
-- moves within a volume and copies across volumes, option forces a copy and command a
-- move, read-only folders take nothing (and what is dragged out of them is copied), a
-- folder cannot go into itself or any folder inside it, a name can be used only once
-- per folder, and the trash takes whatever can be moved. Refusals print their reason.

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
  local opened = item:data("public.folder")
  if opened == nil then return false end
  while folder do
    if folder.id == opened then return true end
    folder = folder.parent
  end
  return false
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
      return refuseOr(operationFor(info, folder))
    end,

    performDrop = function(info, folder)
      local arriving = {}
      for _, item in ipairs(info.items) do
        if info.operation == "copy" and item.container then
          arriving[#arriving + 1] = item:copy()
        elseif item.container ~= folder then
          arriving[#arriving + 1] = item
        end
      end
      folder:insert(arriving, info.index)
      return true
    end,
  },

  ["files.trash"] = {
    accepts = { "public.file-url", "public.folder" },

    dropUpdated = function(info, trash)
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
