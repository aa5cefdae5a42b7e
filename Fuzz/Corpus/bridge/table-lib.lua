local t = { 5, 3, 1, 4, 2 }
table.sort(t)
sink(t, table.concat(t, ","), table.unpack(t), select("#", table.unpack({}, 1, 3)))
local moved = table.move({ 1, 2, 3 }, 1, 3, 2, {})
table.insert(moved, 1, "first")
sink(moved, table.remove(moved), table.pack(1, nil, 3))
sink(pcall(table.move, {}, 1, math.maxinteger, 2), pcall(table.unpack, {}, 1, 1e7), pcall(table.concat, { {} }))
return table.pack(table.unpack({ 1, 2, 3 }, -1, 1))
