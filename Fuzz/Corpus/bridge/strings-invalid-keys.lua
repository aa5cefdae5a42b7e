sink({ ["\xff"] = 1, ["\xfe"] = 2, ["\u{FFFD}"] = 3, ok = 4 })
sink({ ["\xc3"] = "\xc3", [("\x80"):rep(3)] = "\x80" })
