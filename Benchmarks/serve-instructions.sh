#!/usr/bin/env bash
# Instructions per `move` answered by `droprules serve` (the bundled calendar scenario),
# counted by callgrind: the release binary answers 200 and then 1,200 moves on one
# drag, and the difference divided by 1,000 is one move, read, stepped and answered.
# Needs valgrind and `swift build -c release` of the main package.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip -g -o "$work/droprules" .build/release/droprules
for n in 200 1200; do
  {
    echo '{"jsonrpc": "2.0", "id": 0, "method": "beginDrag", "params": {"items": ["standup"]}}'
    for ((i = 1; i <= n; i++)); do
      echo "{\"jsonrpc\": \"2.0\", \"id\": $i, \"method\": \"move\", \"params\": {\"at\": [$((20 + i % 60)), 50]}}"
    done
    echo "{\"jsonrpc\": \"2.0\", \"id\": $((n + 1)), \"method\": \"cancel\"}"
  } > "$work/moves$n.jsonl"
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg$n" "$work/droprules" serve \
    rules/calendar/move-to-empty-day.scenario.json < "$work/moves$n.jsonl" > /dev/null 2>&1
  counts[$n]=$(grep -m1 '^summary:' "$work/cg$n" | awk '{ print $2 }')
done
echo "  $(( (counts[1200] - counts[200]) / 1000 )) instructions per move answered"
