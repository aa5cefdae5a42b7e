return { fuzz = {
  canDrag = function(item, source) return true end,
  dragOperations = function(info, source) return { "move", "copy" } end,
  validateDrop = function(info, target) return true end,
  dropEntered = function(info, target) target:set("hover", true) end,
  dropUpdated = function(info, target) return info.modifiers.option and "copy" or "move" end,
  dropExited = function(info, target) target:set("hover", false) end,
  performDrop = function(info, target) target:insert(info.items); return true end,
  dragEnded = function(info, source, operation) end,
} }
