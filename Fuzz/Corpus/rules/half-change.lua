-- Removes the item for a preview, then runs out of budget.
return { fuzz = {
  dropEntered = function(info, target) target:remove(info.items[1]); while true do end end,
  dropUpdated = function() return "move" end,
  performDrop = function() return true end,
} }
