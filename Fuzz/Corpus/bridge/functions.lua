local function f(...) return ... end
sink(f, print, sink, string.gsub, coroutine.create(f))
sink({ f, g = f })
return f, sink, coroutine.running()
