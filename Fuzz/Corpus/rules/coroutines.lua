-- Coroutines that hide work from the budget, and a wrap that raises the cap's error.
return { fuzz = {
  dropUpdated = function()
    local co = coroutine.wrap(function() while true do coroutine.yield(string.rep("z", 1 << 16)) end end)
    local kept = {}
    for i = 1, 1e6 do kept[i] = co() end
    return "move"
  end,
  dragEnded = function(info, source)
    local co = coroutine.create(function() while true do end end)
    coroutine.resume(co)
    coroutine.close(co)
  end,
} }
