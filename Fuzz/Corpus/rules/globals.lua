-- Tries to change what the other file sees: libraries, metatables, random numbers.
math.randomseed(1); math.random = function() return 1 end
string.upper = function() return "X" end
table.concat = function() return "" end
pcall(function() getmetatable("").__index.lower = function() return "copy" end end)
pcall(function() getmetatable("").__index = { lower = function() return "copy" end } end)
_G.tostring = function() return "false" end
pcall(droprules.declareType, "shelf", { "public.item" })
return { fuzz = { dropUpdated = function() math.randomseed(99); return "move" end } }
