-- Calendar: schedule items move between days, as in the SwiftUI calendar seed, but
-- without its placeholder items for empty days (an empty day is just a target with no
-- items), with past days forbidden, option-drag copying, and a per-day capacity.
droprules.declareType("com.example.schedule-item", { conformsTo = { "public.data" } })

local function isFull(day, info)
  local capacity = day.data.capacity
  if capacity == nil then return false end
  local incoming = 0
  for _, item in ipairs(info.items) do
    if item.container ~= day or info.operation == "copy" then incoming = incoming + 1 end
  end
  return #day.items + incoming > capacity
end

return {
  ["calendar.day"] = {
    accepts = { "com.example.schedule-item" },

    validateDrop = function(_info, day)
      return not day.data.holiday
    end,

    dropUpdated = function(info, day)
      if day.data.past then return "forbidden" end
      local operation = info.modifiers.option and "copy" or "move"
      if isFull(day, { items = info.items, operation = operation }) then return "forbidden" end
      return operation
    end,

    performDrop = function(info, day)
      local items = {}
      for position, item in ipairs(info.items) do
        items[position] = info.operation == "copy" and item:copy() or item
      end
      day:insert(items, info.index)
      return true
    end,
  },
}
