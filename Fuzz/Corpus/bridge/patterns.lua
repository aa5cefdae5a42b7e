local s = "key = value; other=thing;  last =  1"
for k, v in s:gmatch("(%w+)%s*=%s*(%w+)") do sink(k, v) end
sink(s:gsub("(%w+)", "<%1>"), s:gsub("%s", "", 2), s:find("=", 1, true), s:match("^(%w+)"))
sink(("hello world"):gsub("o", { o = "0" }), ("abc"):gsub("", "-"), ("abc"):gsub(".", function(c) return c:byte() end))
sink(string.find("a+b", "+", 1, true), string.find("aaa", "a-", 2), string.match("  x", "()x()"))
return ("THE (quick) fox"):find("%((%a+)%)")
