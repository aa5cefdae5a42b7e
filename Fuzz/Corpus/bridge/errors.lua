sink(pcall(error, { code = 1 }), pcall(error, nil), pcall(error, "msg", 0), pcall(error, setmetatable({}, { __tostring = function() return "obj" end })))
sink(select(2, xpcall(function() error("deep") end, function(m) return { m } end)))
error({ "raised", 1 })
