#!/usr/bin/env bash
# The whole test suite, quietly: runs `swift test` (arguments are passed on, e.g. --filter Lint) with
# its output in .build/test.log, then prints the compiler's warnings and the test summary. When
# anything fails it prints the failures and then the full log, so nothing is hidden.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
log=.build/test.log
echo "swift test${*:+ $*} (full log: $log)"
swift test "$@" >"$log" 2>&1
status=$?
# Warnings are printed once per file and again per build step: each once.
grep -E '^/.*: warning: ' "$log" | sort -u
if [ "$status" -eq 0 ]; then
  # Swift Testing's summary, and XCTest's when it ran any test.
  grep -E 'Test run with [0-9]+ tests?' "$log" | tail -n 1
  grep -E 'Executed [1-9][0-9]* tests?' "$log" | tail -n 1
  exit 0
fi
echo "--- failures ---"
grep -E '✘|error:|failed|Fatal error' "$log" | grep -v '^\s*$' | head -n 60
echo "--- full log ($log) ---"
cat "$log"
echo "swift test failed (exit $status)"
exit "$status"
