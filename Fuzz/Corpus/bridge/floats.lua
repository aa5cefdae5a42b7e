local nan = 0 / 0
sink(nan, -nan, math.huge, -math.huge, -0.0, 0.0, 5e-324, 1.7976931348623157e308, 0.1 + 0.2)
sink({ nan, -0.0, math.huge }, { x = -0.0, y = 1e308 * 10 })
return -0.0, nan, 1e15, 9e15, 9007199254740992.0
