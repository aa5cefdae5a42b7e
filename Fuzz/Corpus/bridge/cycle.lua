local t = {}
t[1] = t
t.self = t
print(pcall(sink, t))
local a, b = {}, {}
a.b, b.a = b, a
print(pcall(sink, a))
return t
