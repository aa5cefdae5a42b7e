local s = "a\0b\0\0c"
sink(s, "\0", "", ("\0"):rep(100))
sink({ [s] = s, ["\0"] = "nul key" })
return s
