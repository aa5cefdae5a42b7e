sink({ 1, 2, 3, a = 1, b = { 1, { 2, { 3 } } } })
sink({ {}, { {} }, { a = {} } })
return { list = { 1, 2, 3 }, map = { x = 1 }, both = { 1, x = 2 } }
