local count = 0
for _ = 1, 1000 do
  local co = coroutine.create(function(a) return sink(a, { a }) end)
  count = count + select("#", coroutine.resume(co, count))
end
return count
