#!/usr/bin/env bash
# The whole Swift test suite and the bundled rule tests built with AddressSanitizer, and
# droprules' own C with UBSan as well. .ci/run runs the rule tests and a short fuzz this
# way; this runs everything (about 9 minutes to build and 5 to run on 2 cores). A memory
# error prints `ERROR: AddressSanitizer` and stops the process; undefined behaviour in
# our C prints `runtime error:` and stops it too. Timing tests may fail under ASan's
# slowdown (a 250 ms deadline, a peak-memory bound): read the failures, not the count.
set -euo pipefail
cd "$(dirname "$0")/../.."
flags=(--sanitize=address --scratch-path .build-asan -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
swift build --build-tests "${flags[@]}"
export ASAN_OPTIONS=detect_leaks=0
swift test --skip-build "${flags[@]}" 2>&1 | tee /tmp/droprules-asan-tests.log | tail -3
.build-asan/debug/droprules test rules/ | tail -1
if grep -E "ERROR: AddressSanitizer|runtime error:" /tmp/droprules-asan-tests.log; then
  echo "sanitizer reports above" >&2
  exit 1
fi
echo "no sanitizer report"
