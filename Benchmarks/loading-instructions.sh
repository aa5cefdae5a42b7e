#!/usr/bin/env bash
# Instructions per target loaded (parse, decode, board into a host), counted by
# callgrind: exact and repeatable, whatever the machine's load, so a ratio above 1
# between 100,000 and 1,000 targets is work that grows faster than the board, not
# caches or noise. Each size loads once and then twice; the difference divided by the
# size is the cost per target, setup and one-time costs cancelled out.
# Needs valgrind (apt-get install valgrind). Takes about five minutes.
set -euo pipefail
source "$(dirname "$0")/callgrind.sh"
count() { instructions load "$1" "$2" "$3"; }
for shape in flat chain columns; do
  line="  $(printf '%-8s' "$shape")"
  first=0
  for size in 1000 100000; do
    a=$(count "$shape" "$size" 1)
    b=$(count "$shape" "$size" 2)
    per=$(( (b - a) / size ))
    [ "$first" -eq 0 ] && first=$per
    line+="$(printf '  %6d: %6d' "$size" "$per")"
  done
  echo "$line instructions per target   ratio $(awk -v a="$first" -v b="$per" 'BEGIN { printf "%.2f", b / a }')"
done
