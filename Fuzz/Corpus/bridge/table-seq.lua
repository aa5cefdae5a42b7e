local t = {}
for i = 1, 100 do t[i] = i * i end
sink(t, { 1, 2, 3, n = 3 }, { "a", nil, "c" }, { [1] = 1, [3] = 3 }, { nil, nil, 3 })
return t
