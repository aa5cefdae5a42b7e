#!/usr/bin/env bash
# Issue 38 at full size: the attacks the Swift tests run CI-sized. Not run by CI (minutes
# and hundreds of MB at worst); run by hand after `swift build`, from the repository root:
#   bash Tests/Slow/host-work.sh
# Each line prints what the host answered or held; docs/limits.md gives the bounds.
set -euo pipefail
bin="${DROPRULES:-.build/debug/droprules}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/box.lua" <<'LUA'
return { box = {
  dropUpdated = function() error(string.rep("e", 8192)) end,
  performDrop = function(info, box) box:insert(info.items) return true end,
} }
LUA

# 1. serve: a move over a 10 MB unknown target id, a 1 MB unknown item id, a 10 MB method.
python3 - "$bin" "$work" <<'PY'
import json, subprocess, sys
bin, work = sys.argv[1], sys.argv[2]
board = {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}]}
requests = [
    {"method": "load", "params": {"rules": [work + "/box.lua"]}},
    {"method": "setBoard", "params": board},
    {"method": "beginDrag", "params": {"items": ["y" * 1_000_000]}},
    {"method": "beginDrag", "params": {"items": ["x"]}},
    {"method": "move", "params": {"over": "t" * 10_000_000}},
    {"method": "m" * 10_000_000},
]
lines = "".join(json.dumps(dict(jsonrpc="2.0", id=i, **r)) + "\n" for i, r in enumerate(requests))
out = subprocess.run([bin, "serve"], input=lines.encode(), capture_output=True).stdout.decode().splitlines()
for request, answer in zip(requests[2:], out[2:]):
    print(f"serve {request['method'][:20]}: answered {len(answer.encode())} bytes")
PY

# 2. run: 60,000 steps, each raising 8 KiB: the trace keeps 100 errors.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
steps = [{"at": [10 + i % 80, 50]} for i in range(60_000)] + ["cancel"]
json.dump({"rules": ["box.lua"], "board": {"targets": [
    {"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]}]},
    "drag": {"items": ["x"]}, "steps": steps}, open(work + "/flood.scenario.json", "w"))
PY
if command -v /usr/bin/time >/dev/null; then
  /usr/bin/time -f "run 60,000 raising steps: %M KiB peak" "$bin" run "$work/flood.scenario.json" --format json \
    >"$work/flood.json" 2>"$work/time.txt" || true
  tail -1 "$work/time.txt"
else
  "$bin" run "$work/flood.scenario.json" --format json >"$work/flood.json" || true
fi
echo "run 60,000 raising steps: JSON report $(wc -c <"$work/flood.json") bytes"

# 3. serve: 40 MiB of board data a rule stored (copying it into the host takes more than
# the default instruction budget and deadline), then one batch of 30 board requests.
cat > "$work/fill.lua" <<'LUA'
return { box = {
  dropUpdated = function() return "move" end,
  performDrop = function(info, box)
    for i = 1, 40 do box:set("blob" .. i, string.rep("x", 1 << 20)) end
    return true
  end,
} }
LUA
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
board = {"targets": [{"id": "a", "type": "box", "frame": [0, 0, 100, 100], "items": [{"id": "x"}]},
                     {"id": "b", "type": "box", "frame": [100, 0, 100, 100]}]}
def line(i, method, params=None):
    request = dict(jsonrpc="2.0", id=i, method=method)
    if params is not None: request["params"] = params
    return json.dumps(request)
lines = [line(1, "load", {"rules": [work + "/fill.lua"]}), line(2, "setBoard", board),
         line(3, "beginDrag", {"items": ["x"]}), line(4, "move", {"over": "b"}), line(5, "drop"),
         "[" + ",".join(line(100 + i, "board") for i in range(30)) + "]"]
open(work + "/boards.jsonl", "w").write("\n".join(lines) + "\n")
PY
if command -v /usr/bin/time >/dev/null; then
  /usr/bin/time -f "serve 30 board answers of 40 MiB: %M KiB peak" "$bin" serve --max-instructions 1000000000000 --max-time 0 <"$work/boards.jsonl" \
    >"$work/boards.out" 2>"$work/time.txt" || true
  tail -1 "$work/time.txt"
else
  "$bin" serve --max-instructions 1000000000000 --max-time 0 <"$work/boards.jsonl" >"$work/boards.out" || true
fi
python3 - "$work/boards.out" <<'PY'
import json, sys
last = open(sys.argv[1], "rb").read().splitlines()[-1]
answers = json.loads(last)
results = sum(1 for a in answers if "result" in a)
codes = sorted({a["error"]["code"] for a in answers if "error" in a})
print(f"serve 30 board answers of 40 MiB: one line of {len(last)} bytes, {results} results, errors {codes}")
PY

# 5. The collector: a rule that chains 40,000 weak-keyed entries per dropUpdated stalls a
# collection past any deadline. Timed step by step over serve, in the host's process and
# with --isolate (each file in a worker the host stops 100 ms past the deadline).
cat > "$work/stall.lua" <<'LUA'
local tables, tail = {}, {}
return { stall = {
  dropUpdated = function()
    local weak = setmetatable({}, { __mode = "k" })
    tables[#tables + 1] = weak
    local key = tail
    for _ = 1, 40000 do local following = {}; weak[key] = following; key = following end
    tail = key
    return "move"
  end,
  performDrop = function(info, target) target:insert(info.items) return true end,
} }
LUA
python3 - "$bin" "$work" <<'PY'
import json, subprocess, sys, time
bin, work = sys.argv[1], sys.argv[2]
board = {"targets": [{"id": "a", "type": "stall", "frame": [0, 0, 100, 100]}]}
requests = [("load", {"rules": [work + "/stall.lua"]}), ("setBoard", board),
            ("beginDrag", {"items": [{"id": "n", "representations": [["public.plain-text", "n"]]}]})]
requests += [("move", {"at": [10 + step, 10]}) for step in range(9)] + [("cancel", None)]
for flags in ([], ["--isolate"]):
    server = subprocess.Popen([bin, "serve", *flags], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    times = []
    started = time.monotonic()
    for i, (method, params) in enumerate(requests):
        request = dict(jsonrpc="2.0", id=i, method=method, **({"params": params} if params else {}))
        before = time.monotonic()
        server.stdin.write((json.dumps(request) + "\n").encode())
        server.stdin.flush()
        server.stdout.readline()
        if method == "move": times.append(time.monotonic() - before)
    total = time.monotonic() - started
    server.stdin.close()
    server.wait()
    name = "serve " + " ".join(flags) if flags else "serve"
    print(f"{name}: 9 steps of weak-keyed chains took {total:.2f} s, the slowest {max(times) * 1000:.0f} ms")
PY
