-- droprules' default limits (64 MiB).
local bytes = ("x"):rep(500001)
local co = coroutine.create(function() end)
-- 500,001 arguments: the resume wrapper's `realResume(thread, ...)` copies them again,
-- past Lua's stack limit of 1,000,000 slots: "stack overflow" is raised in the resumer
-- after prepareResume made `co` budget->runningThread, and settleResume never runs.
print(pcall(coroutine.resume, co, bytes:byte(1, -1)))
co, bytes = nil, nil
-- Garbage until the collector has freed the coroutine.
for i = 1, 2000 do local garbage = ("g"):rep(50000) .. i end
-- Memory into the last MiB under the cap: the allocator calls clua_interrupt, which sets
-- a hook on budget->runningThread, the freed coroutine.
local keep = {}
for i = 1, 700 do keep[i] = ("k"):rep(100000) .. i end
