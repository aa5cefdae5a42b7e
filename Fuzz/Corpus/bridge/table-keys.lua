local key = {}
local t = { [true] = 1, [1.5] = 2, [key] = 3, [-1] = 4, [0] = 5, [2^53] = 6, name = "named", [1] = "one" }
sink(t, { [math.maxinteger] = 1 }, { [math.mininteger] = 1, "x" })
return t
