local t = {}
for i = 1, 5000 do t[i] = i % 7 == 0 and { i } or i end
sink(table.unpack(t))
return table.unpack(t)
