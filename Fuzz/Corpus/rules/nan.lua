-- NaN, cycles and huge values where the host reads answers and data.
local cycle = {}; cycle.self = cycle
return { fuzz = {
  validateDrop = function() return 0/0 end,
  dropEntered = function(info, target)
    pcall(target.set, target, "cycle", cycle)
    pcall(target.set, target, "nan", 0/0)
    pcall(target.set, target, "huge", math.huge)
    pcall(target.set, target, "int", math.maxinteger)
  end,
  dropUpdated = function(info, target) return { operation = 0/0 } end,
  performDrop = function(info, target) return setmetatable({}, { __eq = function() return true end }) end,
  dragOperations = function() return { "move", "move", 1 << 62, 0/0 } end,
} }
