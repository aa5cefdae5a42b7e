sink(math.maxinteger, math.mininteger, math.maxinteger - 1, 9007199254740993, -9007199254740993, 2^53, 2^63)
sink({ math.maxinteger, math.mininteger, 1 << 62, -(1 << 53) - 1 })
return math.mininteger, 0x7fffffffffffffff
