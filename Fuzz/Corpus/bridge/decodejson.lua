if droprules then
  sink(droprules.decodeJSON('{"n": 9007199254740993, "f": -0.0, "e": 1e-400, "s": "\\u0000\\ud83d\\ude00", "big": 1e308}'))
  sink(droprules.decodeJSON(("["):rep(600) .. ("]"):rep(600)))
  sink(droprules.decodeJSON('"\\udc00"'), droprules.decodeJSON("[1,]"), droprules.decodeJSON("01"))
  sink(droprules.decodeJSON('{"a":1,"a":2}'), droprules.decodeJSON("true"), droprules.decodeJSON("-"))
end
