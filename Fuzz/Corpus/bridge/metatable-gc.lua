print(pcall(setmetatable, {}, { __gc = function() end }))
local mt = {}
local t = setmetatable({}, mt)
mt.__gc = function() sink("gc") end
mt.__mode = "k"
sink(t)
return t
