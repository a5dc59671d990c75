#!/usr/bin/env bash
# Instruction counts of `shade state` on a fixed slice of the benchmark corpus, under callgrind:
# repeatable whatever else the machine is doing, so they judge an optimisation where wall-clock
# times on a shared machine cannot. Quote them before and after each change.
#
# Usage: scripts/callgrind.sh [SHADE] [N]   (default: the release build, N = 20000 pushes)
#   Prints one line per run: platform, instructions (Ir), and Ir per push; then the same for a headless
#   `shade listen` taking the slice as NDJSON over its unix socket (bench/peers/ndjson_client.c, every line
#   acknowledged). The callgrind output files stay in .build/bench/callgrind/ for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
shade=${1:-}
n=${2:-20000}
if [ -z "$shade" ]; then
  swift build -c release --product shade >/dev/null
  shade=$(swift build -c release --show-bin-path)/shade
fi
command -v valgrind >/dev/null || { echo "callgrind.sh needs valgrind: apt-get install valgrind" >&2; exit 2; }
out=.build/bench/callgrind
mkdir -p "$out"
slice=.build/bench/slice-$n.jsonl
[ -f "$slice" ] || python3 bench/make-load.py "$n" "$slice"
label=$(basename "$(dirname "$shade")")
for platform in android all; do
  file="$out/$label-$platform.out"
  valgrind --tool=callgrind --callgrind-out-file="$file" "$shade" state "$slice" --platform "$platform" >/dev/null 2>"$out/$label-$platform.log"
  ir=$(grep -E '^(summary|totals):' "$file" | head -1 | awk '{print $2}')
  printf 'callgrind: shade state (%d pushes) --platform %-7s %15s Ir  %8d Ir/push\n' "$n" "$platform" \
    "$(printf "%'d" "$ir")" $((ir / n))
done

# Live ingest: the slice as NDJSON lines into a headless listen under callgrind.
client=.build/bench/ndjson-client
[ -x "$client" ] && [ "$client" -nt bench/peers/ndjson_client.c ] || cc -O2 -o "$client" bench/peers/ndjson_client.c
sock=$(mktemp -u /tmp/shade-callgrind-XXXXXX.sock)
file="$out/$label-listen.out"
valgrind --tool=callgrind --callgrind-out-file="$file" "$shade" listen --headless --socket "$sock" --port 0 \
  >/dev/null 2>"$out/$label-listen.log" &
pid=$!
for _ in $(seq 1 240); do [ -S "$sock" ] && break; sleep 0.25; done
"$client" "$sock" "$slice" 256 >/dev/null
kill -TERM "$pid"
wait "$pid" || true
ir=$(grep -E '^(summary|totals):' "$file" | head -1 | awk '{print $2}')
printf 'callgrind: shade listen (%d NDJSON lines, unix socket)   %15s Ir  %8d Ir/push\n' "$n" "$(printf "%'d" "$ir")" $((ir / n))
