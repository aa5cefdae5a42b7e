if target then
  sink(target.id, target.type, target.frame, target.data.source ~= nil, target.items, info.items[1].id)
  sink(target:set("k", { a = 1, b = { 2, 3 } }), target.data.k)
  sink(pcall(target.set, target, "k", function() end), pcall(target.set, target, 1, 2))
  sink(target.data, target.frame, info.modifiers, info.location)
  sink(pcall(target.insert, target, info.items, 0 / 0), pcall(target.remove, target, info.items[1]))
  sink(info.items[1]:copy(), droprules.decodeJSON('{"a":[1,2,{"b":null}],"c":1e400}'), droprules.decodeJSON("[[["))
  sink(droprules.conforms("public.plain-text", { "public.text" }), pcall(droprules.declareType, "x.y", {}))
end
sink("done")
