-- A module under src/, required as busted's default path finds it: require "shapes".
local shapes = {}

function shapes.area(width, height)
  if type(width) ~= "number" or type(height) ~= "number" then error("area expects two numbers") end
  return width * height
end

function shapes.describe(shape, log)
  log(shape.name)
  return shape.name .. " of " .. shapes.area(shape.width, shape.height)
end

return shapes
