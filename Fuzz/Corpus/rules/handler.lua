-- A message handler after a budget error, and errors of every size.
return { fuzz = {
  dropEntered = function()
    xpcall(function() while true do end end, function(m) while true do end end)
  end,
  dropUpdated = function()
    error(string.rep("e", 1 << 22))
  end,
  dropExited = function() error(setmetatable({}, { __tostring = function() while true do end end })) end,
  performDrop = function() error() end,
} }
