sink("é", "e\u{301}", "\u{10FFFF}", "\u{FEFF}", "日本語", "😀")
sink({ ["é"] = 1, ["ü"] = 2, ["\u{212B}"] = 3 })
return "\u{1F600}", "\xff\xfe", "\xed\xa0\x80", "\xc0\x80", "\xf4\x90\x80\x80"
