#!/usr/bin/env bash
# Byte-identical check: runs `shade state --trace` with two binaries over every Samples file and every
# vector, under every profile and option set the tests use, and diffs the outputs (stdout, stderr and
# exit status). A speed change must leave all of them identical.
#
# Usage: scripts/trace-diff.sh OLD_SHADE NEW_SHADE [VECTORS_DIR]
#   VECTORS_DIR defaults to the real-world payloads the tests use (Tests/ShadeCoreTests/Fixtures/vectors).
# Exit 0 when every output is identical; 1 with the first differences otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: scripts/trace-diff.sh OLD_SHADE NEW_SHADE [VECTORS_DIR]}
new=${2:?usage: scripts/trace-diff.sh OLD_SHADE NEW_SHADE [VECTORS_DIR]}
vectors=${3:-Tests/ShadeCoreTests/Fixtures/vectors}

inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(find Samples -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.ndjson' -o -name '*.apns' \) | LC_ALL=C sort)
[ -d "$vectors" ] || { echo "trace-diff.sh: no folder $vectors" >&2; exit 2; }
while IFS= read -r f; do inputs+=("$f"); done < <(find "$vectors" -type f ! -name '*.md' | LC_ALL=C sort)

# The four platforms, then the option sets the tests exercise.
optionsets=(
  "--platform android"
  "--platform ios"
  "--platform web"
  "--platform all"
  "--platform android --android-version 10"
  "--platform ios --ios-version 14"
  "--platform ios --ios-version 12"
  "--platform ios --ios-version 15.4"
  "--platform ios --ios-communication off"
  "--platform all --sdk 0.1.21"
  "--platform all --sdk android=0.1.21,ios=0.1.20"
  "--platform all --sdk web=0.1.14,android=0.1.22"
  "--platform all --flavor flutter"
  "--platform all --flavor react-native"
  "--platform all --locale zh-Hans"
  "--platform all --locale zh_TW"
  "--platform all --app com.example.chat"
  "--platform all --group-by data.payload.room"
  "--platform all --group-by data.room"
  "--platform android --bundle-at 2"
  "--platform all --strings Samples/strings/Localizable.strings --strings Samples/strings/strings.xml --locale de"
  "--platform all --strings Samples/strings/strings.json --locale fa"
  "--platform all --offline 5s..30s"
  "--platform all --offline 0s..1h"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0
diffs=0
run_one() {  # binary, outfile, args...
  local bin=$1 out=$2; shift 2
  "$bin" state "$@" --trace >"$out" 2>"$out.err"
  echo "exit $?" >>"$out.err"
}
check() {  # label, args...
  local label=$1; shift
  run_one "$old" "$tmp/a" "$@"
  run_one "$new" "$tmp/b" "$@"
  runs=$((runs + 1))
  if ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
    diffs=$((diffs + 1))
    if [ "$diffs" -le 5 ]; then
      echo "DIFFERENT: shade state $label --trace"
      diff <(cat "$tmp/a" "$tmp/a.err") <(cat "$tmp/b" "$tmp/b.err") | head -20
    fi
  fi
}
for opts in "${optionsets[@]}"; do
  read -r -a args <<<"$opts"
  for f in "${inputs[@]}"; do check "$f $opts" "$f" "${args[@]}"; done
  # Whole directories and standard input take their own paths through the reader.
  check "Samples $opts" Samples "${args[@]}"
  run_one "$old" "$tmp/a" - "${args[@]}" <Samples/demo.jsonl
  run_one "$new" "$tmp/b" - "${args[@]}" <Samples/demo.jsonl
  runs=$((runs + 1))
  cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/a.err" "$tmp/b.err" || { diffs=$((diffs + 1)); echo "DIFFERENT: stdin demo.jsonl $opts"; }
done
echo "trace-diff: $runs runs (${#inputs[@]} inputs × ${#optionsets[@]} option sets, plus directories and stdin), $diffs different"
[ "$diffs" -eq 0 ]
