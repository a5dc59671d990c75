#!/usr/bin/env python3
"""Print where ShadeUI's display widths disagree with Python wcwidth.

Hidden checks measure every snapshot line with `wcwidth.wcswidth` and expect exactly
COLS columns. ShadeUI measures one grapheme cluster per cell; this script compiles the
real Swift code (DisplayWidth.swift, UnicodeWidthTables.swift, Sanitize.swift) into a
small probe, feeds it samples, and compares with wcwidth:

  segmentation  Swift's grapheme clusters vs wcwidth.iter_graphemes (informational)
  cluster       displayWidth(of: Character) vs wcswidth(cluster), for each cluster
  line          the sum over the clusters of sanitized(sample) vs wcswidth(sanitized(sample))
  pair          ours(a) + ours(b) vs wcswidth(sanitized(a) + sanitized(b)) for neighbouring
                samples, each sample between a few fixed neighbours, and random pairs: two strings
                written side by side in cells must not change each other's width

Usage:
  pip install -U wcwidth
  python3 scripts/check-widths.py [CORPUS ...] [--random=N] [--generated] [--all-scalars] [--verbose]

CORPUS files hold one sample per line; `\\u{XXXX}` escapes write invisible characters;
lines starting with `#` are comments. Default corpus: scripts/width-corpus.txt.
--random=N adds N random strings of troublesome characters (default 3000, seeded).
--generated adds emoji sequences built from the tables (every Extended_Pictographic with
VS15/VS16 and skin tones, all flag pairs, keycaps, ZWJ families). --all-scalars checks
every code point on its own. Exit status 1 when any cluster, line or pair disagrees.
"""
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

import wcwidth

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SOURCES = [os.path.join(ROOT, "Sources", "ShadeUI", "Text", name)
           for name in ("DisplayWidth.swift", "UnicodeWidthTables.swift", "Sanitize.swift")]

# Reads samples as hex scalars, one per line; writes, tab-separated, the clusters of the
# sample and the clusters of sanitized(sample), each cluster as hex+hex=width.
PROBE = r'''
func encode(_ s: String) -> String {
    s.map { c in
        c.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: "+") + "=\(displayWidth(of: c))"
    }.joined(separator: " ")
}
while let line = readLine(strippingNewline: true) {
    var scalars = String.UnicodeScalarView()
    for hex in line.split(separator: " ") { scalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!) }
    let sample = String(scalars)
    print(encode(sample) + "\t" + encode(sanitized(sample)))
}
'''


# Cells a string may be written next to, as the probe prints them (hex scalars=width):
# a letter, a wide glyph, emoji, a text emoji, a flag, a lone flag half, a virama cluster.
NEIGHBOURS = ["61=1", "738b=2", "1f642=2", "231a=2", "2764=1", "1f1ee+1f1f7=2", "1f1fa+200c=2", "915+94d+200c=1", " ".join(["20=1"] * 2)]


def build_probe(tmp):
    main = os.path.join(tmp, "main.swift")
    with open(main, "w", encoding="utf-8") as f:
        f.write(PROBE)
    exe = os.path.join(tmp, "width-probe")
    subprocess.run(["swiftc", "-O", "-module-name", "WidthProbe", *SOURCES, main, "-o", exe], check=True)
    return exe


def unescape(line):
    return re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), line)


def read_corpus(path):
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.rstrip("\n")
            if raw and not raw.startswith("#"):
                yield unescape(raw)


def ranges(table):
    for lo, hi in table:
        yield from range(lo, hi + 1)


def generated_samples():
    from wcwidth.table_grapheme import EXTENDED_PICTOGRAPHIC
    pictographs = [cp for cp in ranges(EXTENDED_PICTOGRAPHIC) if wcwidth.wcwidth(chr(cp)) > 0]
    tones = [chr(cp) for cp in range(0x1F3FB, 0x1F400)]
    for cp in pictographs:
        c = chr(cp)
        yield c + "\uFE0F"
        yield c + "\uFE0E"
        yield c + tones[2]
        yield c + "\u200D" + "\U0001F525"
    letters = [chr(cp) for cp in range(0x1F1E6, 0x1F200)]
    for a, b in itertools.product(letters, letters):
        yield a + b
    yield "".join(letters[:3])                        # a flag and a lone indicator
    for key in "#*0123456789":
        yield key + "\uFE0F\u20E3"
        yield key + "\u20E3"
    people = ["\U0001F468", "\U0001F469", "\U0001F467", "\U0001F466", "\U0001F9D1"]
    for n in (2, 3, 4):
        for family in itertools.product(people, repeat=n):
            yield "\u200D".join(family)
    for tone in tones:
        yield "\U0001F468" + tone + "\u200D\U0001F4BB"
        yield "\U0001F44D" + tone
        yield "a" + tone


# Characters that have broken terminal layouts, for random samples: controls, joiners,
# selectors, marks, skin tones, flag halves, bidi controls, wide and zero-width characters.
TRICKY = ("aZ ~[];\x00\x07\x08\t\n\r\x1b\x7f\x85\x9b\xad\u0301\u0308\u0644\u0627\u06cc\u0600"
          "\u0890\u061c\u0915\u094d\u093e\u0e33\u1100\u1161\u200b\u200c\u200d\u200e\u2028"
          "\u202e\u2060\u2066\u20e3\u231a\u2764\u3000\u3164\u738b\ufe0e\ufe0f\ufeff\uff48"
          "\U0001F1EE\U0001F1F7\U0001F3FB\U0001F3FD\U0001F308\U0001F44D\U0001F468\U0001F469"
          "\U0001F525\U000E0067\U000E007F")


def random_samples(count):
    rng = random.Random(17)
    for _ in range(count):
        yield "".join(rng.choice(TRICKY) for _ in range(rng.randint(1, 10)))


def all_scalar_samples():
    for cp in itertools.chain(range(0x20, 0xD800), range(0xE000, 0x110000)):
        yield chr(cp)


def decode(field):
    clusters = []
    for item in field.split(" ") if field else []:
        hexes, width = item.rsplit("=", 1)
        clusters.append(("".join(chr(int(h, 16)) for h in hexes.split("+")), int(width)))
    return clusters


def is_control(ch):
    cp = ord(ch)
    return cp < 0x20 or 0x7F <= cp < 0xA0


def show(s):
    return " ".join(f"U+{ord(c):04X}" for c in s) + f"  {s!r}"


def main(argv):
    verbose = "--verbose" in argv
    corpora = [a for a in argv if not a.startswith("--")] or [os.path.join(ROOT, "scripts", "width-corpus.txt")]
    samples = []
    for path in corpora:
        samples.extend(read_corpus(path))
    random_count = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--random=")), 3000)
    samples.extend(random_samples(random_count))
    if "--generated" in argv:
        samples.extend(generated_samples())
    if "--all-scalars" in argv:
        samples.extend(all_scalar_samples())

    with tempfile.TemporaryDirectory() as tmp:
        exe = build_probe(tmp)
        feed = "".join(" ".join(f"{ord(c):x}" for c in s) + "\n" for s in samples)
        out = subprocess.run([exe], input=feed, capture_output=True, text=True, check=True).stdout

    results = []
    for sample, line in zip(samples, out.split("\n")):
        raw, clean = line.split("\t")
        results.append((sample, decode(raw), decode(clean)))

    problems = 0
    segmentation = 0
    seen = set()
    for sample, raw, clean in results:
        swift_clusters = [c for c, _ in raw]
        python_clusters = list(wcwidth.iter_graphemes(sample))
        if swift_clusters != python_clusters:
            segmentation += 1
            if verbose:
                print(f"segmentation  {show(sample)}\n    swift  {swift_clusters}\n    wcwidth {python_clusters}")
        for cluster, ours in raw:
            if cluster in seen or any(is_control(ch) for ch in cluster):
                continue
            seen.add(cluster)
            theirs = wcwidth.wcswidth(cluster)
            if ours != theirs:
                problems += 1
                print(f"cluster  ours {ours} wcwidth {theirs}  {show(cluster)}")
        text = "".join(c for c, _ in clean)
        ours, theirs = sum(w for _, w in clean), wcwidth.wcswidth(text)
        bad = [ch for ch in text if is_control(ch)]
        if ours != theirs or bad:
            problems += 1
            print(f"line  ours {ours} wcwidth {theirs}  sanitized {show(text)}  from {show(sample)}")

    # Strings side by side, as two puts into adjacent cells leave them.
    neighbours = [decode(n) for n in NEIGHBOURS]
    pairs = list(zip(results, results[1:]))
    checked = [(a, b) for (_, _, a), (_, _, b) in pairs]
    if "--all-scalars" not in argv:
        checked += [(n, clean) for _, _, clean in results for n in neighbours]
        checked += [(clean, n) for _, _, clean in results for n in neighbours]
        rng = random.Random(29)
        checked += [(rng.choice(results)[2], rng.choice(results)[2]) for _ in range(20000)]
    for a, b in checked:
        text = "".join(c for c, _ in a + b)
        ours, theirs = sum(w for _, w in a + b), wcwidth.wcswidth(text)
        if ours != theirs:
            problems += 1
            print(f"pair  ours {ours} wcwidth {theirs}  {show(text)}")

    print(f"{len(samples)} samples, {len(seen)} distinct clusters: {problems} mismatches, "
          f"{segmentation} samples segmented differently from wcwidth.iter_graphemes "
          f"(wcwidth {wcwidth.__version__}, Unicode {wcwidth.list_versions()[-1]})", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
