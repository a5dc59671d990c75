#!/usr/bin/env bash
# valgrind --tool=memcheck over a short `shade state` and a short headless `shade listen` session that takes
# a few pushes over curl (every route) and NDJSON, then SIGTERM. Exit 1 on any memcheck error.
#
# What counts: invalid reads and writes, uses of uninitialised values, bad frees, and memory definitely or
# indirectly lost. What does not: "possibly lost" and "still reachable" — the Swift runtime's metadata
# and conformance caches live until exit and hold tagged pointers into their blocks, which memcheck
# cannot tell from a leak (see DECISIONS.md).
#
# MEMCHECK_BUILD=0 skips `swift build`; the binary is .build/debug/shade.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind > /dev/null || { echo "memcheck.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ "${MEMCHECK_BUILD:-1}" = 0 ] || swift build --product shade > /dev/null
shade=.build/debug/shade
work=$(mktemp -d /tmp/shade-memcheck-XXXXXX)
trap 'rm -rf "$work"' EXIT
# SWIFT_BACKTRACE off: the runtime's crash reporter is a second process valgrind need not follow.
memcheck=(env SWIFT_BACKTRACE=enable=no valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect
          --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --track-origins=yes)
failed=0

# Prints the verdict of one valgrind log; a log with errors is shown whole.
verdict() {
  local name=$1 log=$2 status=$3
  local summary definite possibly
  summary=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
  definite=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1)
  possibly=$(sed -n 's/.*possibly lost: \([0-9,]*\) bytes.*/\1/p' "$log" | tail -1)
  echo "memcheck.sh: $name: ${summary:-?} errors, ${definite:-0} bytes definitely lost, ${possibly:-0} possibly lost (runtime caches; allowed), exit $status"
  if [ "$status" = 99 ] || [ "${summary:-1}" != 0 ]; then
    cat "$log" >&2
    failed=1
  fi
}

# --- a short `state` -----------------------------------------------------------------------------
set +e
"${memcheck[@]}" --log-file="$work/state.log" "$shade" state Samples/demo.jsonl --platform all > "$work/state.json"
status=$?
set -e
verdict "shade state Samples/demo.jsonl --platform all" "$work/state.log" "$status"
[ "$status" = 0 ] || [ "$status" = 99 ] || { echo "memcheck.sh: state exited $status" >&2; failed=1; }

# --- a short headless `listen` -------------------------------------------------------------------
socket=$work/s.sock
"${memcheck[@]}" --log-file="$work/listen.log" "$shade" listen --headless --port 0 --socket "$socket" \
  --record "$work/rec.jsonl" > "$work/listen.out" 2> "$work/listen.err" &
pid=$!
port=
for _ in $(seq 1 300); do   # valgrind starts slowly: up to 30 s
  port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/listen.out" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "memcheck.sh: listen did not start under valgrind" >&2
  cat "$work/listen.err" "$work/listen.log" >&2
  kill "$pid" 2> /dev/null || true
  exit 1
fi
base=http://127.0.0.1:$port
post() { curl -s --max-time 30 -o /dev/null -w '%{http_code} ' "$base$1" -H 'content-type: application/json' --data-binary "$2"; }
post /push/send-to-user @Samples/seed000-send-to-user.json
post "/3/device/$(printf 'ab%.0s' {1..32})" @Samples/seed001-im-apns-loc.apns
post /fcm/send @Samples/seed001-im-fcm-loc.json
post /v1/projects/demo/messages:send '{"message":{"token":"t","notification":{"title":"T","body":"B"}}}'
post /--/api/v2/push/send '[{"to":"ExponentPushToken[a]","title":"T","body":"B"}]'
post /push '{"aps":{"alert":"\u001b[31m"}}'
post /push '{"not a push":1}'
curl -s --max-time 30 -o /dev/null "$base/state?platform=all"
curl -s --max-time 30 -o /dev/null "$base/healthz"
echo
"$shade" send --socket "$socket" Samples/seed000-group-conversation.jsonl > /dev/null || true
kill -TERM "$pid"
set +e
wait "$pid"
status=$?
set -e
verdict "shade listen --headless (8 requests, an NDJSON file, SIGTERM)" "$work/listen.log" "$status"
[ "$status" = 0 ] || [ "$status" = 99 ] || { echo "memcheck.sh: listen exited $status" >&2; cat "$work/listen.err" >&2; failed=1; }
grep -q "shade: stopped:" "$work/listen.out" || { echo "memcheck.sh: listen did not stop in order" >&2; failed=1; }

exit "$failed"
