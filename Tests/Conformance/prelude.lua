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
-- The sandbox has no debug, io, os or package. The test files use them here and there
-- (a timer, a traceback, `require "debug"`): these stand-ins, the same in both runs, let
-- a file go on; an assertion that needs the real library fails in both runs alike, and
-- so is not compared.
-- debug's functions answer a table whose every field is 0.
local function zeros() return setmetatable({}, { __index = function() return 0 end }) end
debug = setmetatable({ traceback = function(message) return tostring(message or "") end },
  { __index = function() return zeros end })
os = { clock = function() return 0 end, time = function() return 0 end, date = function() return "" end,
  getenv = function() return nil end, setlocale = function() return false end }
io = { write = function() end, stdin = {}, stdout = {}, stderr = {} }
package = { loaded = { string = string, table = table, math = math, utf8 = utf8, coroutine = coroutine,
  debug = debug, os = os, io = io, _G = _G }, path = "", cpath = "" }
package.loaded.package = package
dofile, loadfile = nil, nil
function require(name) return package.loaded[name] or error("module '" .. name .. "' not found") end
return function() return failures end
