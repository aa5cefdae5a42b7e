-- Reorder: a grid of slide pages reordered by dragging, as in the UIKit / LazyVGrid
-- seed. The rule turns the pointer's local position into an insertion gap (row by row,
-- nearest column boundary) and moves the page there live, while the drag goes on. The
-- seed needed two code paths and still swapped the wrong cells; here `grid:insert`
-- takes a gap in the list as it is now and the host does the removal shift, so moving
-- a page onto the gap just before or after itself is a no-op and nothing is off by one.
-- The preview is staged: a cancelled drag leaves the grid as it was. The cover stays
-- first: `canDrag` does not let it go (SwiftUI's `moveDisabled`, UIKit's
-- `canMoveItemAt`), and nothing may be dropped before it (the seed could stop a cell
-- from moving but not from being displaced).
droprules.declareType("com.example.page", { conformsTo = { "public.data" } })

-- The gap nearest the pointer: rows fill left to right, and within a row the pointer
-- snaps to the closer column boundary.
local function gapUnderPointer(info, grid)
  local layout = grid.data
  local row = math.max(0, math.floor(info.location.y / layout.cellHeight))
  local column = math.floor(info.location.x / layout.cellWidth + 0.5)
  column = math.max(0, math.min(layout.columns, column))
  return math.min(row * layout.columns + column + 1, #grid.items + 1)
end

local function isPinned(item, grid)
  for _, id in ipairs(grid.data.pinned or {}) do
    if item.id == id then return true end
  end
  return false
end

local function pages(info)
  return info:itemProviders({ "com.example.page", "public.image" })
end

return {
  ["reorder.grid"] = {
    accepts = { "com.example.page", "public.image" },

    canDrag = function(page, grid) return not isPinned(page, grid) end,

    dropUpdated = function(info, grid)
      local gap, dragged = gapUnderPointer(info, grid), pages(info)
      local first = grid.items[1]
      if first and isPinned(first, grid) and gap == 1 then return "forbidden" end
      if info.source ~= grid then return { operation = "copy", index = gap } end
      grid:insert(dragged, gap)
      return { operation = "move", index = gap }
    end,

    performDrop = function(info, grid)
      local items = pages(info)
      for index, item in ipairs(items) do
        -- A page from another grid is copied; one from another app is placed as it is.
        if item.container and item.container ~= grid then items[index] = item:copy() end
      end
      grid:insert(items, info.index)
      return true
    end,
  },
}
