#!/usr/bin/env bash
# Byte-identical check: runs `shade state --trace`, `shade state` and `shade snapshot` with two binaries
# over every Samples file and every vector, under every profile and option set the tests use, and diffs
# the outputs (stdout, stderr and exit status). A speed change must leave all of them identical. (Without
# --trace, and for snapshot, centers keep no traces: those runs check that nothing but the trace came
# from it.)
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
run_one() {  # binary, outfile, command and args...
  local bin=$1 out=$2; shift 2
  "$bin" "$@" >"$out" 2>"$out.err"
  echo "exit $?" >>"$out.err"
}
compare() {  # label
  runs=$((runs + 1))
  if ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
    diffs=$((diffs + 1))
    if [ "$diffs" -le 5 ]; then
      echo "DIFFERENT: shade $1"
      diff <(cat "$tmp/a" "$tmp/a.err") <(cat "$tmp/b" "$tmp/b.err") | head -20
    fi
  fi
}
check() {  # label, args...: state with and without --trace
  local label=$1; shift
  run_one "$old" "$tmp/a" state "$@" --trace
  run_one "$new" "$tmp/b" state "$@" --trace
  compare "state $label --trace"
  run_one "$old" "$tmp/a" state "$@"
  run_one "$new" "$tmp/b" state "$@"
  compare "state $label"
}
for opts in "${optionsets[@]}"; do
  read -r -a args <<<"$opts"
  for f in "${inputs[@]}"; do check "$f $opts" "$f" "${args[@]}"; done
  # Whole directories and standard input take their own paths through the reader.
  check "Samples $opts" Samples "${args[@]}"
  run_one "$old" "$tmp/a" state - "${args[@]}" --trace <Samples/demo.jsonl
  run_one "$new" "$tmp/b" state - "${args[@]}" --trace <Samples/demo.jsonl
  compare "state - (demo.jsonl) $opts --trace"
  # The final screen of every sample and vector at once.
  run_one "$old" "$tmp/a" snapshot Samples "$vectors" "${args[@]}" --size 160x60
  run_one "$new" "$tmp/b" snapshot Samples "$vectors" "${args[@]}" --size 160x60
  compare "snapshot Samples $vectors $opts --size 160x60"
done
echo "trace-diff: $runs runs (${#inputs[@]} inputs × ${#optionsets[@]} option sets, state with and without --trace, plus directories, stdin and snapshots), $diffs different"
[ "$diffs" -eq 0 ]
