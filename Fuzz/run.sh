#!/usr/bin/env bash
# Builds the fuzzers with libFuzzer and AddressSanitizer and runs each for SECONDS
# (default 60): FuzzScenario over Fuzz/Corpus/scenario, FuzzBridge over Fuzz/Corpus/bridge,
# FuzzRules over Fuzz/Corpus/rules.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]      # TARGET: FuzzScenario, FuzzBridge, FuzzRules (default all)
#
# The corpus grows in a scratch directory (seeds copied in), never in the repository;
# crash, timeout and OOM inputs go to the scratch artifacts directory it prints.
# FUZZ_SCRATCH sets the scratch directory (default: a fresh one under $TMPDIR or /tmp);
# FUZZ_FLAGS adds libFuzzer flags (-jobs, -seed, ...). Exits 1 when a target found something.
#
# LUA_SOURCE (a Lua source tree or a git directory of lua/lua; see Fuzz/build-lua.sh)
# links the fuzzers against Lua 5.4.4 built with AddressSanitizer, so that a bad access
# inside Lua is reported too; without it they link the system liblua5.4, which is not
# instrumented, and the run says so.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzScenario FuzzBridge FuzzRules)

flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -Xcc -Xswiftc -fsanitize=address)
if [ -n "${LUA_SOURCE:-}" ]; then
  lua_dir="$PWD/Fuzz/.build/lua-asan"
  echo "== Lua from $LUA_SOURCE with AddressSanitizer: $(Fuzz/build-lua.sh "$LUA_SOURCE" "$lua_dir")"
  # SwiftPM asks pkg-config how to link lua5.4: this answer names the instrumented static
  # library's folder, so -llua5.4 finds it there.
  export PKG_CONFIG_PATH="$lua_dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
else
  echo "== LUA_SOURCE not set: linking the system liblua5.4, which AddressSanitizer cannot see into"
fi
echo "== swift build -c release --package-path Fuzz ${flags[*]}"
start=$(date +%s)
swift build -c release --package-path Fuzz "${flags[@]}" 2>&1 | grep -v "__asan_extra_spill_area" | tail -3
echo "   built in $(($(date +%s) - start)) s"
# -Xcc -fsanitize=address also instruments our C (Sources/CLuaHost), a C target whose
# compiler gets the -Xcc flags; without it only Swift code is checked.
bin="$(swift build -c release --package-path Fuzz "${flags[@]}" --show-bin-path)"
if ldd "$bin/FuzzScenario" | grep -q liblua5.4; then lua_linked=system; else lua_linked=instrumented; fi
echo "== Lua linked: $lua_linked"
if [ -n "${LUA_SOURCE:-}" ] && [ "$lua_linked" = system ]; then
  echo "!! LUA_SOURCE was given but the system liblua5.4 was linked" >&2
  exit 1
fi

scratch="${FUZZ_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/droprules-fuzz.XXXXXX")}"
echo "== scratch: $scratch"

# libFuzzer reports crashes itself; Swift's own backtracer would hold a crash for 30 s.
export SWIFT_BACKTRACE=enable=no
# Known findings that would stop every run at once, tolerated until droprules fixes them
# (Fuzz/Corpus/regressions/README.md); FUZZ_TOLERATE= (empty) checks them again.
# weak-keys: FuzzRules skips inputs that name `__mode`, since weak-keyed chains make Lua's
# collector quadratic and no limit can stop it (docs/isolation.md: each file stalls only
# itself).
export FUZZ_TOLERATE="${FUZZ_TOLERATE-weak-keys}"
echo "== tolerating known findings: ${FUZZ_TOLERATE:-none}"

status=0
for target in "${targets[@]}"; do
  case "$target" in
    FuzzScenario) seeds=Fuzz/Corpus/scenario; max_len=8192; dict=Fuzz/json.dict ;;
    FuzzBridge) seeds=Fuzz/Corpus/bridge; max_len=4096; dict=Fuzz/lua.dict ;;
    FuzzRules) seeds=Fuzz/Corpus/rules; max_len=4096; dict=Fuzz/lua.dict ;;
    *) echo "unknown target $target" >&2; exit 64 ;;
  esac
  corpus="$scratch/$target/corpus"
  artifacts="$scratch/$target/artifacts/"
  mkdir -p "$corpus" "$artifacts"
  cp -n "$seeds"/* "$corpus"/
  echo "== $target for $seconds s (corpus $corpus, artifacts $artifacts)"
  # Each input's work is bounded by the runtime's limits; -timeout catches a hang past
  # them, -rss_limit_mb memory that grows without bound.
  # shellcheck disable=SC2086
  if ! "$bin/$target" "$corpus" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=2048 -dict="$dict" -artifact_prefix="$artifacts" -print_final_stats=1 ${FUZZ_FLAGS:-} \
    2>&1 | tee "$scratch/$target/log" | grep -aE "^#[0-9]+.*(DONE|INITED)|^stat::|ERROR|SUMMARY|Fatal error|Test unit written|^Done [0-9]+ runs"; then
    :
  fi
  if ls "$artifacts" | grep -q .; then
    echo "!! $target found something: $(ls "$artifacts")"
    status=1
  fi
done
echo "== logs and artifacts under $scratch"
exit $status
