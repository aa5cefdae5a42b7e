local mt = { __index = function(t, k) return k end, __len = function() return 99 end, __pairs = error }
local t = setmetatable({ 1, 2, 3 }, mt)
sink(t, setmetatable({}, { __metatable = false }), setmetatable({}, { __eq = function() return true end }))
sink({ inner = t, list = { t, t } })
return t, setmetatable({}, { __tostring = function() error("no") end, __name = "x" })
