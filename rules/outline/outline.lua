-- Outline: a to-do outline (Workflowy, OmniOutliner, Things' areas). Every row is an
-- item that opens its own list of children (`opens`), so dragging a row moves it with
-- its whole subtree. Over the first or last third of a row the dragged rows go between
-- rows (a sibling); over the middle third they go *under* that row, as its last
-- children. An outline is at most `maxDepth` levels deep (on the root list's data), a
-- row never goes under itself or its own descendants, and a closed row (its children
-- list `collapsed`) springs open when the pointer rests on it for 600 ms, so a row can
-- be dropped anywhere among its children.

local SPRING_LOADING_DELAY = 600

-- How deep a list lies: the root list is level 1.
local function levelOf(list)
  local level = 1
  while list.parent do
    level = level + 1
    list = list.parent
  end
  return level
end

-- How many levels a row brings with it: 1, plus its deepest child's.
local function heightOf(row)
  local deepest = 0
  for _, child in ipairs(row.opens and row.opens.items or {}) do
    deepest = math.max(deepest, heightOf(child))
  end
  return 1 + deepest
end

-- How many rows a row brings with it, itself included.
local function sizeOf(row)
  local size = 1
  for _, child in ipairs(row.opens and row.opens.items or {}) do size = size + sizeOf(child) end
  return size
end

-- The root list, whose data holds the outline's settings.
local function rootOf(list)
  while list.parent do list = list.parent end
  return list
end

-- Where a drop lands: under the row whose middle third the pointer is over, else this
-- list at the gap.
local function destinationOf(info, list)
  if info.over ~= nil and info.edge == "center" and info.over.opens then return info.over.opens, nil end
  return list, info.index
end

-- Why the dragged rows cannot go into `destination`, or nil.
local function refusal(info, destination)
  if info.wouldContainItself then return "a row cannot go under itself" end
  -- Rows move; a drag that allows only a copy would be shown as one, then fail (found by
  -- droprules fuzz).
  if not info.allowedOperations.move then return "rows move; they are never copied" end
  local maxDepth = rootOf(destination).data.maxDepth
  for _, row in ipairs(info.items) do
    if row.opens == nil then return (row.name or row.id) .. " is not an outline row" end
    if maxDepth and levelOf(destination) + heightOf(row) - 1 > maxDepth then
      return "the outline is at most " .. maxDepth .. " levels deep"
    end
  end
  return nil
end

-- Milliseconds the pointer has rested on the row it is over (see files.lua).
local function restingTime(info, list)
  local row = info.over and info.over.id or ""
  local resting = list.data.resting
  if resting == nil or resting.row ~= row then
    list:setForDrag("resting", { row = row, since = info.hoverTime })
    return 0
  end
  return info.hoverTime - resting.since
end

local function nameOf(target) return target.data.name or target.id end

return {
  ["outline.list"] = {
    dropUpdated = function(info, list)
      local destination, index = destinationOf(info, list)
      local reason = refusal(info, destination)
      if reason then
        print(reason)
        return "forbidden"
      end
      if destination.collapsed and restingTime(info, list) >= SPRING_LOADING_DELAY then
        return { operation = "move", open = true }
      end
      return { operation = "move", index = index }
    end,

    performDrop = function(info, list)
      local destination, index = destinationOf(info, list)
      destination:insert(info.items, index)
      return true
    end,

    -- "Groceries, with 3 rows under it".
    dragPreview = function(items, _list)
      local rows = 0
      for _, row in ipairs(items) do rows = rows + sizeOf(row) - 1 end
      return {
        title = items[1].name or items[1].id,
        subtitle = rows > 0 and ("with " .. rows .. (rows == 1 and " row" or " rows") .. " under it") or nil,
        badge = #items > 1 and #items or nil,
      }
    end,

    -- "Moved Groceries under Errands, second of 3."
    announce = function(event, info, list)
      -- After a cancel, an item dragged in from another app is gone: only these events
      -- read the items (droprules fuzz found the one that did not).
      if event ~= "dropped" and event ~= "entered" and event ~= "proposal" then return nil end
      local row = info.items[1]
      local name = row.name or row.id
      if event == "dropped" then
        local parent = row.container
        return "Moved " .. name .. " under " .. nameOf(parent) .. ", " .. row.index .. " of " .. #parent.items .. "."
      end
      if event == "entered" or event == "proposal" then
        local destination, index = destinationOf(info, list)
        if destination ~= list then return name .. ": under " .. (info.over.name or info.over.id) .. "." end
        return name .. ": in " .. nameOf(list) .. ", at " .. (index or #list.items + 1) .. "."
      end
      return nil
    end,
  },
}
