local big = ("x"):rep(1 << 20)
local t = {}
for i = 1, 20 do t[i] = big .. i end
print(pcall(sink, t))
local keys = {}
for i = 1, 200000 do keys["k" .. i] = i end
print(pcall(sink, keys))
return big
