-- A metatable that becomes weak-keyed after setmetatable.
local mt = {}
local weak = setmetatable({}, mt)
mt.__mode = "k"
local head = {}
_G.head = head
return { fuzz = {
  dropUpdated = function()
    local key = head
    for i = 1, 50000 do local n = {}; weak[key] = n; key = n end
    return "move"
  end,
} }
