local f = load("return ...", "=inner", "t", { sink = sink })
sink(f(1, 2, 3))
sink(load("\27Lua"), load(function() return nil end), load("syntax error here"))
local env = {}
load("x = 1; y = { 2 }", "=c", "t", env)()
sink(env)
return load("return sink")()
