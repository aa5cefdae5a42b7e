local subjects = { "", "\0", "((()))", "[]", "%", "a]b", "^$", ("a"):rep(300) }
local patterns = { "%b()", "%f[%w]%w+", "[^%]]", "[]]", "[%a-z]", "(()", "%1", "(a)%1", "[a-]", "$^", "^", "(.-)$",
  ".-.-.-b", "[%", "%g+", "(()a*)", "[^]", "%f[%z]", "x*?", "%", "(", ")" }
for _, s in ipairs(subjects) do
  for _, p in ipairs(patterns) do
    sink(pcall(string.find, s, p), pcall(string.match, s, p), pcall(string.gsub, s, p, "%0%0"))
    sink(pcall(function() local r = {} for a, b in s:gmatch(p) do r[#r + 1] = a end return r end))
  end
end
