local t = { v = 0 }
for i = 1, 35 do t = { ["k" .. i] = t, [i] = i } end
print(pcall(sink, t))
