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
