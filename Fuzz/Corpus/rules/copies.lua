-- Copies, JSON and data until the cap.
return { fuzz = {
  dropEntered = function(info, target)
    local copies = {}
    for i = 1, 1e6 do copies[i] = info.items[1]:copy() end
  end,
  dropUpdated = function(info, target)
    pcall(droprules.decodeJSON, "[" .. string.rep("[],", 1 << 20) .. "[]]")
    target:set("big", string.rep("x", 1 << 22))
    return "copy"
  end,
  performDrop = function(info, target)
    target:insert(info.items[1]:copy())
    target:set("bad", "\255\254")
    return true
  end,
} }
