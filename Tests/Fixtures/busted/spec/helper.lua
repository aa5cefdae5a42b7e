-- Shared by the specs, required as 'spec.helper' and as 'spec/helper'.
local helper = {}
function helper.square(side) return { name = "square", width = side, height = side } end
return helper
