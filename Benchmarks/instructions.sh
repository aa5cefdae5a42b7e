#!/usr/bin/env bash
# Instructions per operation, counted by callgrind (exact and repeatable, whatever the
# machine's load): each kind of operation runs N1 and then N2 times, and the difference
# divided by N2 - N1 is its cost, setup cancelled out. Needs valgrind (apt-get install valgrind).
set -euo pipefail
source "$(dirname "$0")/callgrind.sh"
n1=2000
n2=12000
count() { instructions ops "$1" "$2"; }
declare -A per
for mode in minimal minimal-hooked floor hooked call step across; do
  a=$(count "$mode" "$n1")
  b=$(count "$mode" "$n2")
  per[$mode]=$(( (b - a) / (n2 - n1) ))
  printf '  %-14s %7d instructions per operation\n' "$mode" "${per[$mode]}"
done
awk -v m="${per[minimal]}" -v mh="${per[minimal-hooked]}" -v f="${per[floor]}" -v h="${per[hooked]}" -v c="${per[call]}" -v s="${per[step]}" 'BEGIN {
  printf "  ratio, C API + count hook / C API: %.2f   minimal + count hook / minimal: %.2f\n", h / f, mh / m
  printf "  ratio, call / C API: %.2f   ratio, step / C API: %.2f\n", c / f, s / f
  printf "  ratio, call / minimal C host: %.2f   ratio, step / minimal C host: %.2f (issue 23: step <= 1.5)\n", c / m, s / m
}'
# A pointer step whose rule stages a change (`target:set`) on every step: each step's
# change moves the board's version, so the next step reads `target.data` afresh.
a=$(count stage "$n1")
b=$(count stage "$n2")
printf '  %-14s %7d instructions per operation (a step whose rule calls target:set)\n' stage $(( (b - a) / (n2 - n1) ))
# Whole drags of 200 steps, begin and end included, against 200 calls of the minimal host.
a=$(count drag 20)
b=$(count drag 70)
drag=$(( (b - a) / 50 ))
awk -v d="$drag" -v m="${per[minimal]}" 'BEGIN {
  printf "  a drag of 200 steps: %d instructions, %.2f x 200 minimal calls (issue 23: <= 2)\n", d, d / (200 * m)
}'
