-- A module at the project's root: require "counter".
local counter = { count = 0 }
function counter.bump() counter.count = counter.count + 1 return counter.count end
return counter
