#!/usr/bin/env bash
# Benchmark: builds release, then on the same recording of N pushes runs
#   shade state (the whole pipeline: parse, detect, place on a center, print the state)
#   Python json.loads and orjson.loads, line by line (parsing only: the peers do less work)
# and prints seconds, throughput and Shade's speed as a multiple of each peer.
# Usage: bench/run.sh [N]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
work=${TMPDIR:-/tmp}/shade-bench
mkdir -p "$work"
swift build -c release --product shade >/dev/null
python3 -c "import orjson" 2>/dev/null || pip install -q orjson >/dev/null 2>&1 || true
[ -f "$work/load-$N.jsonl" ] || python3 bench/make-load.py "$N" "$work/load-$N.jsonl"
python3 - "$work/load-$N.jsonl" "$(swift build -c release --show-bin-path)/shade" <<'PY'
import os, subprocess, sys, time, json
path, shade = sys.argv[1], sys.argv[2]
size = os.path.getsize(path)
lines = sum(1 for _ in open(path, "rb"))

def best(fn, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return min(times)

def shade_state(platform):
    return lambda: subprocess.run([shade, "state", path, "--platform", platform], check=True, stdout=subprocess.DEVNULL)

def parse_with(loads):
    def go():
        with open(path, "rb") as f:
            for line in f:
                loads(line)
    return go

results = [("shade state --platform android", best(shade_state("android"))),
           ("shade state --platform all", best(shade_state("all"))),
           ("python json.loads per line", best(parse_with(json.loads)))]
try:
    import orjson
    results.append(("python orjson.loads per line", best(parse_with(orjson.loads))))
except ImportError:
    print("orjson not installed: pip install orjson")
print(f"input: {lines} pushes, {size / 1e6:.1f} MB ({path})")
for name, t in results:
    print(f"  {name:34s} {t:7.3f} s  {size / t / 1e6:8.1f} MB/s  {lines / t / 1e6:6.2f} M pushes/s")
base = dict(results)
for name, t in results[2:]:
    print(f"ratio: shade state (android) is {t / base['shade state --platform android']:.2f}× the speed of {name}")
PY
