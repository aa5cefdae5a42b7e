-- Weak-keyed chains, which make the collector's atomic phase quadratic.
local keep = {}
local weak = setmetatable({}, { __mode = "k" })
local head = {}
keep.head = head
return { fuzz = {
  dropUpdated = function()
    local key = head
    for i = 1, 50000 do
      local nextKey = {}
      weak[key] = nextKey
      key = nextKey
    end
    collectgarbage()
    return "move"
  end,
} }
