local co = coroutine.wrap(function(...)
  local x = sink(coroutine.yield(...))
  sink(coroutine.yield({ x, co }))
  return "done"
end)
sink(co({ 1, 2 }, "a"))
sink(co(3))
local thread = coroutine.create(function() sink(coroutine.running()) error({ "table error" }) end)
sink(coroutine.resume(thread))
sink(coroutine.status(thread), thread)
return thread
