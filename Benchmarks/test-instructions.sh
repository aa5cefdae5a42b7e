#!/usr/bin/env bash
# Instructions per test of `droprules test`, counted by callgrind (exact and repeatable,
# whatever the machine's load): a file of N small tests runs, and so does a file of one;
# the difference divided by N - 1 is what one more test costs, setup cancelled out. At
# 1,000 tests that includes what a test pays for the size of its file (every test loads
# the whole file afresh). Needs valgrind (apt-get install valgrind).
set -euo pipefail
source "$(dirname "$0")/callgrind.sh"
count() { instructions run-tests "$1" 1; }
one=$(count 1)
for size in ${SIZES:-100 1000}; do
  total=$(count "$size")
  printf '  %5d tests in one file: %9d instructions per test\n' "$size" $(( (total - one) / (size - 1) ))
done
