#!/usr/bin/env bash
# Snapshot every Samples file on every platform at a few sizes and check, with Python's
# wcwidth (the measure the project's displayWidth follows), that each snapshot is exactly
# ROWS lines of exactly COLS columns and holds no control byte.
#
#   pip install wcwidth
#   scripts/check-snapshots.sh            # builds first; exit 1 when any line is off
#   SHADE=.build/release/shade scripts/check-snapshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${SHADE:-}" ]]; then
    swift build --product shade >/dev/null
    SHADE=.build/debug/shade
fi
python3 -c 'import wcwidth' 2>/dev/null || { echo "check-snapshots: needs Python wcwidth: pip install wcwidth" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

sizes=(100x30 160x40 40x10 61x17)
platforms=(android ios web all)
count=0
# Every payload file (Samples/strings holds string tables, not payloads).
samples=$(find Samples -path Samples/strings -prune -o -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.ndjson' -o -name '*.apns' \) -print | sort)
for sample in $samples; do
    for size in "${sizes[@]}"; do
        for platform in "${platforms[@]}"; do
            name="$(echo "${sample#Samples/}" | tr / -)_${platform}_${size}.txt"
            "$SHADE" snapshot "$sample" --platform "$platform" --size "$size" >"$out/$name"
            count=$((count + 1))
        done
    done
done

python3 - "$out" <<'PY'
import os, sys
import wcwidth

folder = sys.argv[1]
bad = 0
for name in sorted(os.listdir(folder)):
    cols, rows = (int(n) for n in name.rsplit("_", 1)[1][:-4].split("x"))
    data = open(os.path.join(folder, name), "rb").read()
    controls = [b for b in data if (b < 0x20 and b != 0x0A) or b == 0x7F]
    if controls:
        print(f"{name}: control bytes {sorted(set(controls))}")
        bad += 1
    text = data.decode("utf-8")
    if not text.endswith("\n"):
        print(f"{name}: does not end in a newline")
        bad += 1
    lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    if len(lines) != rows:
        print(f"{name}: {len(lines)} lines, expected {rows}")
        bad += 1
    for number, line in enumerate(lines, 1):
        width = wcwidth.wcswidth(line)
        if width != cols:
            print(f"{name}:{number}: {width} columns, expected {cols}: {line!r}")
            bad += 1
print(f"check-snapshots: {len(os.listdir(folder))} snapshots, {bad} problems (wcwidth {wcwidth.__version__})")
sys.exit(1 if bad else 0)
PY
