sink(nil, true, false, 0, -1, 1.5, "text")
return 1, 2.0, "three", nil
