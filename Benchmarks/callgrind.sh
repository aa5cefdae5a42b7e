# Sourced by the *-instructions.sh scripts: builds the benchmarks in release and defines
# `instructions ARGS...`, the instructions callgrind counts for one run of
# `DropRulesBenchmarks ARGS...` (exact and repeatable, whatever the machine's load).
# Needs valgrind (apt-get install valgrind).
cd "$(dirname "${BASH_SOURCE[0]}")"
swift build -c release >/dev/null
# valgrind 3.19 cannot read the toolchain's debug info: count on a stripped copy.
benchmark_binary=$(mktemp)
trap 'rm -f "$benchmark_binary"' EXIT
strip -g -o "$benchmark_binary" .build/release/DropRulesBenchmarks
instructions() {
  local out
  out=$(mktemp)
  # Swift seeds its hashing at random in each process: a dictionary's work, and so the
  # count, would differ between the two runs a figure subtracts.
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$benchmark_binary" "$@" >/dev/null 2>&1
  grep -m1 '^summary:' "$out" | awk '{ print $2 }'
  rm -f "$out"
}
