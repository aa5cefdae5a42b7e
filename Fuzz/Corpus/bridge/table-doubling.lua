local x = {}
for _ = 1, 40 do x = { x, x } end
print(pcall(sink, x))
return x
