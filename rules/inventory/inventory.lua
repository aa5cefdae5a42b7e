-- Inventory: a game inventory whose slots take only their kind of item (helmets in
-- the head slot: slot types are type identifiers, so conformance does the checking),
-- stack identical items up to the item's limit (the rest stays behind), and swap when
-- the slot already holds something else, but only if the displaced item fits the slot
-- the drag came from. A slot holds one stack: its item and `data.count`.
droprules.declareType("com.example.game.item", { conformsTo = { "public.data" } })
for _, kind in ipairs({ "helmet", "armor", "weapon", "potion" }) do
  droprules.declareType("com.example.game." .. kind, { conformsTo = { "com.example.game.item" } })
end

-- What each slot type takes.
local slotTakes = {
  ["inventory.head"] = "com.example.game.helmet",
  ["inventory.body"] = "com.example.game.armor",
  ["inventory.hand"] = "com.example.game.weapon",
  ["inventory.bag"] = "com.example.game.item",
}

-- An item's kind and stack limit, from its own data.
local function detailsOf(item)
  return item.data.kind or item.id, item.data.maxStack or 1
end

local function countIn(slot)
  if #slot.items == 0 then return 0 end
  return slot.data.count or 1
end

local function fits(item, slot)
  return item:conformsTo(slotTakes[slot.type])
end

-- What dropping the dragged stack on `slot` does: "move", "stack" or "swap", or nil
-- and the reason it cannot.
local function plan(info, slot)
  if #info.items ~= 1 then return nil, "drag one stack at a time" end
  local dragged, source = info.items[1], info.source
  if source == nil then return nil, "items come from the game, not from other apps" end
  -- droprules fuzz found a drag that allowed only a copy: shown as a copy, it then failed.
  if not info.allowedOperations.move then return nil, "items move between slots; they are never copied" end
  if source == slot then return "stay" end
  local held = slot.items[1]
  if held == nil then return "move" end
  local kind, limit = detailsOf(held)
  if kind == detailsOf(dragged) and countIn(slot) < limit then return "stack" end
  if not fits(held, source) then return nil, held.id .. " cannot go into " .. source.id end
  return "swap"
end

local function slotRule(takes)
  return {
    accepts = { takes },
    -- A stack that fits whole into the one held merges into it: the dragged item leaves
    -- the board. Said here, so that droprules fuzz does not call it a lost item.
    deletes = true,

    dropUpdated = function(info, slot)
      local action, reason = plan(info, slot)
      if action == nil then
        print(reason)
        return "forbidden"
      end
      if action == "stay" then return "cancel" end
      return "move"
    end,

    performDrop = function(info, slot)
      local dragged, source = info.items[1], info.source
      local action = plan(info, slot)
      local draggedCount, heldCount = countIn(source), countIn(slot)
      if action == "stack" then
        local _, limit = detailsOf(slot.items[1])
        local total = math.min(limit, heldCount + draggedCount)
        slot:set("count", total)
        local rest = heldCount + draggedCount - total
        if rest == 0 then source:remove(dragged) end
        source:set("count", rest > 0 and rest or nil)
      elseif action == "swap" then
        local held = slot.items[1]
        source:insert(held, nil)
        slot:insert(dragged, nil)
        source:set("count", heldCount)
        slot:set("count", draggedCount)
      elseif action == "move" then
        slot:insert(dragged, nil)
        slot:set("count", draggedCount)
        source:set("count", nil)
      else
        return false
      end
      return true
    end,
  }
end

local rules = {}
for slotType, takes in pairs(slotTakes) do rules[slotType] = slotRule(takes) end
return rules
