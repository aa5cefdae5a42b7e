-- Fruit box: the DropDelegate reference's coloured box. Hovering tints the box
-- (dropEntered / dropExited, as drag-only data: it ends with the drag, so performDrop
-- has nothing to clean up), a box that already holds a banana forbids further drops,
-- and a drop colours the box by the dropped text.
local colors = { ["🍌"] = "yellow", ["🍎"] = "red", ["🍏"] = "green", ["🫐"] = "blue" }

local function colorOf(text)
  for fruit, color in pairs(colors) do
    if text:find(fruit, 1, true) then return color end
  end
  return "gray"
end

return {
  fruitbox = {
    accepts = { "public.plain-text" },

    dropEntered = function(_info, box)
      box:setForDrag("hover", true)
    end,

    -- At the drag's end the hover is gone already, and this changes nothing.
    dropExited = function(_info, box) box:setForDrag("hover", nil) end,

    dropUpdated = function(_info, box)
      if box.data.hasBanana then return "forbidden" end
      return "copy"
    end,

    performDrop = function(info, box)
      local item = info:itemProviders({ "public.plain-text" })[1]
      local text = item:data("public.plain-text")
      box:set("color", colorOf(text))
      if text:find("🍌", 1, true) then box:set("hasBanana", true) end
      box:insert(item, nil)
      return true
    end,
  },
}
