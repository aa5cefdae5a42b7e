-- Long __index chains under table.concat and table.unpack.
local t = {}
for i = 1, 100000 do t = setmetatable({}, { __index = t }) end
return { fuzz = {
  dropUpdated = function()
    pcall(table.concat, t, ",", 1, 1000)
    pcall(table.unpack, t, 1, 1000)
    return "move"
  end,
} }
