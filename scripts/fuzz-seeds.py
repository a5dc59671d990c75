#!/usr/bin/env python3
"""Writes the seed corpus of one kind into a directory: what scripts/fuzz.sh starts each target from.

Kinds (each target's main.swift names its kind on a `// seeds:` line):
  payloads  every payload file of Samples/ and the test fixtures (vectors, regressions), whole and line by line
  http      those payloads as HTTP/1.1 requests to every route (and GETs, chunked and pipelined requests),
            after the one byte that picks how the fuzz target cuts the input into pieces
  ndjson    the recordings and NDJSON samples, after the same byte
  strings   the sample string tables and the test fixtures' tables, after the byte that picks the format
  formats   localisation formats and their arguments, NUL-separated
"""
import hashlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAYLOAD_SUFFIXES = {".json", ".jsonl", ".ndjson", ".apns"}
ROUTES = ["/push", "/push/send-to-user", "/3/device/" + "ab" * 32, "/fcm/send",
          "/v1/projects/demo/messages:send", "/--/api/v2/push/send"]


def payload_files():
    folders = [ROOT / "Samples", ROOT / "Tests/ShadeCoreTests/Fixtures/vectors", ROOT / "Tests/ShadeCoreTests/Fixtures/regressions"]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in PAYLOAD_SUFFIXES:
                yield path


def payloads():
    for path in payload_files():
        data = path.read_bytes()
        yield data
        if path.suffix in {".jsonl", ".ndjson"}:
            yield from (line for line in data.split(b"\n") if line.strip())


def http():
    for i, body in enumerate(payloads()):
        if len(body) > 3500:
            continue
        route = ROUTES[i % len(ROUTES)]
        head = f"POST {route} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        if i % 5 == 0:
            head += "apns-push-type: alert\r\napns-collapse-id: room_42\r\napns-id: 123e4567-e89b-12d3-a456-426614174000\r\n"
        if i % 7 == 0:
            yield bytes([i % 17]) + (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
        else:
            yield bytes([i % 17]) + (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    yield b"\x03GET /state?platform=all HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    yield b"\x01HEAD /state HTTP/1.0\r\n\r\n"
    yield b"\x02POST /push HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}"
    yield b"\x04DELETE /push HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\n\r\n"


def ndjson():
    for path in payload_files():
        if path.suffix in {".jsonl", ".ndjson"}:
            data = path.read_bytes()
            yield b"\x05" + data[:20000]
            yield b"\xf3" + data[:2000].replace(b"\n", b"\r\n")


def strings():
    tables = {".strings": 0, ".xml": 1, ".json": 2}
    for path in sorted((ROOT / "Samples/strings").iterdir()):
        if path.suffix in tables:
            yield bytes([tables[path.suffix]]) + path.read_bytes()
    yield b"\x00" + '"a" = "%1$@ \\U00e9";\n/* c */ "b" = "x";'.encode("utf-16")
    yield b"\x01<resources><string name=\"a\" formatted=\"false\">%s <![CDATA[<b>]]></string><plurals name=\"p\"><item quantity=\"one\">1</item></plurals></resources>"
    yield b"\x02{\"a\": \"$1: $2\", \"b\": \"%2$s %1$d\"}"


def formats():
    forms = ["$1: $2", "%1$@: %2$@", "%@ says %@", "%d new", "%05d|%+d|%-4d|%4d|% d", "%.2f", "%08.2f", "%x %X %#x %o %#o",
             "%5s|%-5s|", "%.3s", "100%%", "line%nbreak", "%3$s %1$s", "%lld %hd %zu", "%e %g %c", "%", "%1$", "%.f"]
    args = [["Alice", "Hello"], ["3", "-7"], ["3.14159", "1e3"], ["0.125", "-0"], ["ab", "cd", "ef"]]
    for i, form in enumerate(forms):
        yield b"\x00".join(part.encode() for part in [form] + args[i % len(args)])


def main():
    kind, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    seeds = {"payloads": payloads, "http": http, "ndjson": ndjson, "strings": strings, "formats": formats}[kind]()
    count = 0
    for seed in seeds:
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        count += 1
    print(f"{count} {kind} seeds in {out}")


if __name__ == "__main__":
    main()
