#!/usr/bin/env bash
# Instructions per pointer step (a hit-test, with no rule to call) to random points of
# boards of 1,000, 10,000 and 100,000 targets, counted by callgrind: exact and
# repeatable. Each size runs 1,000 and then 3,000 steps; the difference divided by 2,000
# is one step, the board's loading cancelled out. A flat cost from 1,000 to 100,000
# targets is a hit-test that does not grow with the board. Needs valgrind.
set -euo pipefail
source "$(dirname "$0")/callgrind.sh"
for shape in flat columns; do
  line="  $(printf '%-8s' "$shape")"
  for size in 1000 10000 100000; do
    a=$(instructions hit "$shape" "$size" 1000)
    b=$(instructions hit "$shape" "$size" 3000)
    line+="$(printf '  %6d: %6d' "$size" $(( (b - a) / 2000 )))"
  done
  echo "$line instructions per step"
done
