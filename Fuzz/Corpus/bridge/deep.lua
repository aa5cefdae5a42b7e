local function nest(n)
  local t = {}
  for _ = 1, n do t = { t } end
  return t
end
sink(nest(31))
print(pcall(sink, nest(32)))
print(pcall(sink, nest(33)))
return nest(30), nest(40)
