-- C functions that do long work: each must pay for it.
local s = string.rep("a", 1 << 20)
return { fuzz = {
  dropEntered = function()
    for i = 1, 1e9 do local _ = string.rep("", 1e9) end
  end,
  dropUpdated = function()
    local t = setmetatable({}, { __len = function() return 1 << 40 end })
    pcall(table.insert, t, 1, 1)
    local list = {}
    for i = 1, 200 do list[i] = s .. i end
    table.sort(list)
    return "move"
  end,
  dropExited = function()
    local set = "[" .. string.rep("b", 1 << 20) .. "]"
    for i = 1, 1e9 do string.find(s, set) end
  end,
  performDrop = function()
    for i = 1, 1e9 do utf8.len(s) end
  end,
} }
