-- Run before each of Lua's own test files, in lua5.4 and in droprules alike, so that
-- both run the same code with the sandbox's globals (no debug, io or os; collectgarbage
-- with "count" only).
--
-- assert records a failed assertion with its file and line and goes on, so that the
-- failures of the two runs can be compared one by one; the file's own checks of errors
-- (pcall, checkerror) are unchanged.
_soft = true   -- Lua's flag: skip the long tests
_port = true   -- Lua's flag: skip what is not portable
local realAssert, pcall, error, print, select = assert, pcall, error, print, select
local failures = 0
function assert(value, ...)
  if not value then
    failures = failures + 1
    local _, where = pcall(error, "", 3)
    print("FAIL " .. tostring(where):gsub(":%s*$", ""))
    return value, ...
  end
  return value, ...
end
-- What the sandbox offers of collectgarbage, for both runs: "count", and nothing more.
local realCollect = collectgarbage
function collectgarbage(option, ...)
  if option == "count" then return realCollect("count") end
  return 0
end
debug, io, os, package, dofile, loadfile, require = nil, nil, nil, nil, nil, nil, nil
return function() return failures end
