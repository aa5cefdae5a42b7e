return { fuzz = {
  dropUpdated = function(info, target) return "move" end
  performDrop = function() return true end,
} }
