-- Two keys, "\u{E9}" (C3 A9) and "e\u{301}" (65 CC 81): different bytes, one Swift String.
sink({ ["\u{E9}"] = 1, ["e\u{301}"] = 2 })
