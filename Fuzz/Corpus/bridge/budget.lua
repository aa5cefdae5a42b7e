local ok, message = pcall(function() while true do end end)
sink(ok, message)
for i = 1, 1e9 do sink(i) end
