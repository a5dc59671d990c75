#!/usr/bin/env bash
# Fuzzes Shade with libFuzzer (-sanitize=fuzzer,address): scripts/fuzz.sh TARGET [SECONDS], or `all`, or `list`.
#
# A target is a folder Fuzz/NAME with main.swift, declared in Package.swift's `fuzzTargets` (built only with
# SHADE_FUZZ=1, in .build/fuzz, so `swift build` and `swift test` never build it): adding one is that file
# and that line. Its `// seeds: KIND` line picks its seed corpus: a kind scripts/fuzz-seeds.py writes
# (payloads, http, ndjson, strings, formats, http2, tls), or a folder of seed files (`// seeds: Fuzz/NAME/seeds`).
# Inputs once found and fixed are in Tests/ShadeCoreTests/Fixtures/fuzz/NAME and run first. Every target
# uses Fuzz/shade.dict.
#
# Fails (exit 1) on any crash, sanitizer report, leak, hang (one input over 1 s), out-of-memory, or output
# holding a raw control byte (the targets abort on one). Prints inputs tried per target.
#
# Environment: FUZZ_JOBS (targets at once; default: the number of cores), FUZZ_BUILD=0 to skip building,
# FUZZ_ARGS (more libFuzzer flags).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

fuzz_root=.build/fuzz
targets() { for main in Fuzz/*/main.swift; do basename "$(dirname "$main")"; done; }

usage() {
  echo "usage: scripts/fuzz.sh TARGET|all|list [SECONDS]   (targets: $(targets | tr '\n' ' '))" >&2
  exit 2
}

[ $# -ge 1 ] || usage
which=$1
seconds=${2:-60}
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
if [ "$which" = list ]; then targets; exit 0; fi
if [ "$which" = all ]; then selected=$(targets); else
  [ -f "Fuzz/$which/main.swift" ] || { echo "fuzz.sh: no target $which (Fuzz/$which/main.swift)" >&2; usage; }
  selected=$which
fi

# --- build: release with ASan and libFuzzer's coverage, every Swift module instrumented -----------------
# -enable-testing: a target may `@testable import` a module to reach a layer that is not public API
# (HTTP2Framing, TLSSession), as the unit tests do.
binary_dir=$fuzz_root/release
if [ "${FUZZ_BUILD:-1}" != 0 ]; then
  for target in $selected; do
    echo "fuzz.sh: building Fuzz$target"
    # gold warns once per ASan symbol it cannot export; only errors matter.
    if ! SHADE_FUZZ=1 swift build -c release --build-path "$fuzz_root" -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing \
        --product "Fuzz$target" > "$fuzz_root-build.log" 2>&1; then
      grep -v "Cannot export local symbol" "$fuzz_root-build.log" | tail -40 >&2
      exit 1
    fi
  done
fi

# --- run: each target on its seeds, its past findings and the corpus it grew before -------------------
mkdir -p "$fuzz_root/logs" "$fuzz_root/artifacts"
run_target() {
  local target=$1
  local kind seeds corpus found log
  seeds=$fuzz_root/seeds/$target
  corpus=$fuzz_root/corpus/$target
  found=Tests/ShadeCoreTests/Fixtures/fuzz/$target
  log=$fuzz_root/logs/$target.log
  rm -rf "$seeds"
  mkdir -p "$corpus" "$seeds"
  kind=$(sed -n 's|^// seeds: *\([^ ]*\).*|\1|p' "Fuzz/$target/main.swift" | head -1)
  if [ -d "$kind" ]; then
    cp "$kind"/* "$seeds"/ 2> /dev/null || true
  else
    python3 scripts/fuzz-seeds.py "${kind:-payloads}" "$seeds" > /dev/null
  fi
  local inputs=("$corpus" "$seeds")
  [ -d "$found" ] && inputs+=("$found")
  # The Swift runtime's own crash reporter would wait for a debugger; libFuzzer and ASan report instead.
  # stdout of the target is closed (-close_fd_mask=1): reports go to stderr.
  set +e
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:handle_abort=1:${ASAN_OPTIONS:-}" \
    "$binary_dir/Fuzz$target" -dict=Fuzz/shade.dict -timeout=1 -rss_limit_mb=2048 -max_total_time="$seconds" \
    -print_final_stats=1 -close_fd_mask=1 -artifact_prefix="$fuzz_root/artifacts/$target-" ${FUZZ_ARGS:-} \
    "${inputs[@]}" > "$log" 2>&1
  echo $? > "$log.status"
  set -e
}

jobs=${FUZZ_JOBS:-$(nproc)}
echo "fuzz.sh: $(echo "$selected" | wc -w) target(s), $seconds s each, $jobs at a time"
running=0
for target in $selected; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

# --- report ------------------------------------------------------------------------------------------
failed=0
printf '%-14s %10s %8s  %s\n' target inputs corpus result
for target in $selected; do
  log=$fuzz_root/logs/$target.log
  status=$(cat "$log.status")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)   # stopped early: its last count
  corpus=$(find "$fuzz_root/corpus/$target" -type f | wc -l)
  result=ok
  if [ "$status" != 0 ]; then
    failed=1
    result=$(grep -m1 -oE "fuzz: .{0,160}|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-z -]+|Fatal error: .{0,120}|ParseDictionaryFile: .*" "$log" || echo "exit $status")
    artifact=$(sed -n "s|.*Test unit written to \(.*\)|\1|p" "$log" | tail -1 || true)
    [ -n "$artifact" ] && result="$result (input: $artifact)"
  fi
  printf '%-14s %10s %8s  %s\n' "$target" "${runs:-?}" "$corpus" "$result"
done
if [ "$failed" != 0 ]; then
  echo "fuzz.sh: FAILED — logs in $fuzz_root/logs; reproduce with $binary_dir/FuzzTARGET INPUT" >&2
  exit 1
fi
