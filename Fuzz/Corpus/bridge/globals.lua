string.format = nil
table.pack = function() return { n = 0 } end
rawlen = function() return 0 end
next = function() return nil end
sink({ 1, 2, a = 3 }, "ok")
_ENV = { sink = sink }
sink(_ENV)
return 1
