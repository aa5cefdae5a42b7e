print(("p"):rep(10000), nil, {}, 1.5)
print(setmetatable({}, { __tostring = function() return ("t"):rep(20000) end }))
sink(collectgarbage("count") > 0, pcall(collectgarbage, "collect"))
return _VERSION
