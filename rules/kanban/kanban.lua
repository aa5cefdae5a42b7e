-- Kanban: cards move between columns along an allowed workflow (no jump from Backlog
-- straight to Done), columns have work-in-progress limits, a card needs an assignee
-- before it can enter Review, and cards reorder within a column at the gap the host
-- computes from the column's item extent. Text from another app becomes a new card,
-- but only in the Backlog. A locked column (`data.locked`, say a sprint that closed)
-- keeps its cards: `canDrag` does not let them go. Each refusal prints its reason, so
-- `droprules run` explains every forbidden proposal. Above the columns, a strip of
-- column headers (`kanban.strip`): each header opens its column, so dragging a header
-- along the strip reorders the columns, each with its cards.
droprules.declareType("com.example.kanban-card", { conformsTo = { "public.data" } })
droprules.declareType("com.example.kanban-column", { conformsTo = { "public.data" } })

-- Where a card may go from each stage (staying in the same column is always allowed).
local transitions = {
  backlog = { todo = true },
  todo = { backlog = true, doing = true },
  doing = { todo = true, review = true },
  review = { doing = true, done = true },
  done = { review = true },
}

-- Stages that need the card to have an assignee.
local needsAssignee = { review = true, done = true }

-- The card an item carries: a board card's own data; from another app, its JSON
-- payload (the card format apps exchange), or plain text taken as the title.
local function cardOf(item)
  if item.data.title then return item.data end
  local payload = item:data("com.example.kanban-card")
  if payload then return droprules.decodeJSON(payload) end
  local text = item:data("public.plain-text")
  return text and { title = text } or nil
end

local ordinals = { "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth" }
-- `second`, or `12th` past the tenth.
local function ordinal(n)
  return ordinals[n] or (tostring(n) .. "th")
end

-- Why `column` cannot take the dragged cards, or nil when it can.
local function refusal(info, column)
  local stage = column.data.stage
  local incoming = 0
  for _, item in ipairs(info.items) do
    local card = cardOf(item)
    if type(card) ~= "table" then return item.id .. " is not a readable card" end
    local from = item.container
    if from == nil then
      if stage ~= "backlog" then return "new cards start in the Backlog" end
    elseif from ~= column then
      local fromStage = from.data.stage
      if not (transitions[fromStage] or {})[stage] then
        return "cannot move " .. item.id .. " from " .. tostring(fromStage) .. " to " .. tostring(stage)
      end
    end
    if needsAssignee[stage] and card.assignee == nil then
      return item.id .. " needs an assignee before " .. tostring(stage)
    end
    if from ~= column then incoming = incoming + 1 end
  end
  local limit = column.data.wip
  if limit and #column.items + incoming > limit then
    return tostring(stage) .. " is at its limit of " .. limit
  end
  return nil
end

return {
  ["kanban.column"] = {
    accepts = { "com.example.kanban-card", "public.plain-text" },

    canDrag = function(card, column)
      if column.data.locked then
        print(card.id .. " stays: " .. tostring(column.data.stage) .. " is locked")
        return false
      end
      return true
    end,

    dropUpdated = function(info, column)
      local reason = refusal(info, column)
      if reason then
        print(reason)
        return "forbidden"
      end
      -- A card lives in one column: a board card only moves. A drag that allows only a
      -- copy (droprules fuzz found this) would otherwise be shown as one, then fail.
      if info.source ~= nil and not info.allowedOperations.move then
        print("a card moves; it is never copied")
        return "forbidden"
      end
      return info.source == nil and "copy" or "move"
    end,

    performDrop = function(info, column)
      column:insert(info.items, info.index)
      return true
    end,
  },

  ["kanban.strip"] = {
    accepts = { "com.example.kanban-column" },

    -- What a screen reader hears: "Done: second of three columns", then "Moved Done to
    -- second of three columns."
    announce = function(event, info, strip)
      local header = info.items[1]
      local count = #strip.items
      if (event == "entered" or event == "proposal") and info.index then
        -- The gap just after the header's own place leaves it where it is.
        local place = info.index
        if header.container == strip and place > header.index then place = place - 1 end
        return (header.name or header.id) .. ": " .. ordinal(place) .. " of " .. count .. " columns"
      end
      if event == "dropped" then
        return "Moved " .. (header.name or header.id) .. " to " .. ordinal(header.index) .. " of " .. count
          .. " columns."
      end
      return nil
    end,

    -- Only this board's own headers reorder here; the strip takes nothing else. A column
    -- moves, never copies (droprules table showed a copy-only drag "performed" here).
    dropUpdated = function(info, strip)
      if not info.allowedOperations.move then
        print("a column moves; it is never copied")
        return "forbidden"
      end
      for _, item in ipairs(info.items) do
        if item.opens == nil or item.container ~= strip then
          print(item.id .. " is not a column of this board")
          return "forbidden"
        end
      end
      return { operation = "move", index = info.index }
    end,

    performDrop = function(info, strip)
      strip:insert(info.items, info.index)
      return true
    end,
  },
}
