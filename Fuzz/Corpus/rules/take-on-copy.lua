-- Takes the items on a copy, and empties its source when the drag ends.
return { fuzz = {
  dropUpdated = function() return "copy" end,
  performDrop = function(info, target) target:insert(info.items); return true end,
  dragEnded = function(info, source) for _, item in ipairs(info.items) do source:remove(item) end end,
} }
