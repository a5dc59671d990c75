#!/usr/bin/env bash
# Instruction counts of `shade state` on a fixed slice of the benchmark corpus, under callgrind:
# repeatable whatever else the machine is doing, so they judge an optimisation where wall-clock
# times on a shared machine cannot. Quote them before and after each change.
#
# Usage: scripts/callgrind.sh [--only RUNS] [SHADE] [N]   (default: the release build, N = 20000 pushes)
#   RUNS is a comma-separated choice of (default state,listen):
#     state    `shade state` on the slice, --platform android and all
#     listen   a headless `shade listen` taking the slice as NDJSON over its unix socket
#              (bench/peers/ndjson_client.c, every line acknowledged)
#     record   the same with --record to a temporary file
#     http1    h2load --h1 -c 16: N/4 send-to-user POSTs (the seed's body), keep-alive
#     http2    h2load -c 16 -m 10: N/4 APNs POSTs, h2c with prior knowledge
#   Each run prints its instructions (Ir) and Ir per push. The live runs also subtract an idle
#   `shade listen` (started and stopped with no traffic), so "net" is what the traffic itself cost.
#   The callgrind output files stay in .build/bench/callgrind/ for callgrind_annotate.
#   CALLGRIND_EXTRA adds valgrind options to the live runs: CALLGRIND_EXTRA='--toggle-collect=SYMBOL' counts
#   only that function and what it calls (its mangled name, as callgrind_annotate prints it).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs=state,listen
if [ "${1:-}" = "--only" ]; then
  runs=$2
  shift 2
fi
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
wants() { [[ ",$runs," == *",$1,"* ]]; }
total() { grep -E '^(summary|totals):' "$1" | head -1 | awk '{print $2}'; }

if wants state; then
  for platform in android all; do
    file="$out/$label-$platform.out"
    valgrind --tool=callgrind --callgrind-out-file="$file" "$shade" state "$slice" --platform "$platform" >/dev/null 2>"$out/$label-$platform.log"
    ir=$(total "$file")
    printf 'callgrind: shade state (%d pushes) --platform %-7s %15s Ir  %8d Ir/push\n' "$n" "$platform" \
      "$(printf "%'d" "$ir")" $((ir / n))
  done
fi

# The live runs: a headless listen under callgrind, a client outside it, then SIGTERM.
client=.build/bench/ndjson-client
[ -x "$client" ] && [ "$client" -nt bench/peers/ndjson_client.c ] || cc -O2 -o "$client" bench/peers/ndjson_client.c
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
body=$out/send-to-user.json
tr -d '\n' <Samples/seed000-send-to-user.json >"$body"
apns=$out/apns.json
printf '%s' '{"aps":{"alert":{"title":"Ali","body":"Is the bike still available?"},"thread-id":"room_42"}}' >"$apns"
requests=$((n / 4))
idle_ir=

# live NAME EXTRA-ARGS… -- CLIENT-COMMAND…: one live measurement; @SOCK@ and @PORT@ in the client's
# arguments become the socket and the port.
live() {
  local name=$1
  shift
  local extra=()
  while [ "$1" != "--" ]; do extra+=("$1"); shift; done
  shift
  sock=$(mktemp -u /tmp/shade-callgrind-XXXXXX.sock)
  port=$(free_port)
  local file="$out/$label-$name.out"
  valgrind --tool=callgrind ${CALLGRIND_EXTRA:-} --callgrind-out-file="$file" "$shade" listen --headless --socket "$sock" --port "$port" "${extra[@]}" \
    >/dev/null 2>"$out/$label-$name.log" &
  local pid=$!
  for _ in $(seq 1 240); do [ -S "$sock" ] && break; sleep 0.25; done
  for _ in $(seq 1 40); do curl -s "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.25; done
  local command=()
  for arg in "$@"; do arg=${arg//@SOCK@/$sock}; command+=("${arg//@PORT@/$port}"); done
  "${command[@]}" >"$out/$label-$name.client" 2>&1 || { echo "callgrind: $name: the client failed:" >&2; cat "$out/$label-$name.client" >&2; }
  kill -TERM "$pid"
  wait "$pid" || true
  live_ir=$(total "$file")
}

if wants listen || wants record || wants http1 || wants http2; then
  live idle -- true
  idle_ir=$live_ir
  printf 'callgrind: shade listen, idle (start, one GET /healthz, stop)   %15s Ir\n' "$(printf "%'d" "$idle_ir")"
fi
report() {   # LABEL COUNT
  printf 'callgrind: %-52s %15s Ir  %8d Ir/push  (net of idle: %d)\n' "$1" "$(printf "%'d" "$live_ir")" \
    $((live_ir / $2)) $(((live_ir - idle_ir) / $2))
}
if wants listen; then
  live listen -- "$client" @SOCK@ "$slice" 256
  report "shade listen ($n NDJSON lines, unix socket)" "$n"
fi
if wants record; then
  rec=$(mktemp -u /tmp/shade-callgrind-XXXXXX.jsonl)
  live record --record "$rec" -- "$client" @SOCK@ "$slice" 256
  report "shade listen --record ($n NDJSON lines)" "$n"
  rm -f "$rec"
fi
if wants http1; then
  live http1 -- h2load --h1 -n "$requests" -c 16 -m 1 -d "$body" -H 'content-type: application/json' \
    "http://127.0.0.1:@PORT@/push/send-to-user"
  report "shade listen (HTTP/1.1, $requests send-to-user POSTs)" "$requests"
fi
if wants http2; then
  live http2 -- h2load -n "$requests" -c 16 -m 10 -d "$apns" -H 'apns-push-type: alert' -H 'apns-topic: com.example.app' \
    -H 'content-type: application/json' "http://127.0.0.1:@PORT@/3/device/ab12"
  report "shade listen (HTTP/2, $requests APNs POSTs)" "$requests"
fi
