local leaf = { 1, 2, 3 }
local t = { leaf, leaf, a = leaf, b = { leaf, leaf } }
sink(t)
local x = { 1 }
for _ = 1, 12 do x = { x, x } end
sink(x)
return t, x
