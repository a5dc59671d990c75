#!/usr/bin/env python3
"""Writes the seed corpus of one kind into a directory: what scripts/fuzz.sh starts each target from.

Kinds (each target's main.swift names its kind on a `// seeds:` line):
  payloads  every payload file of Samples/ and the test fixtures (vectors, regressions), whole and line by line
  http      those payloads as HTTP/1.1 requests to every route (and GETs, chunked and pipelined requests),
            after the one byte that picks how the fuzz target cuts the input into pieces
  ndjson    the recordings and NDJSON samples, after the same byte
  strings   the sample string tables and the test fixtures' tables, after the byte that picks the format
  formats   localisation formats and their arguments, NUL-separated
  http2     what real clients sent over h2c (Fuzz/Seeds/http2, made by scripts/capture-seeds.py) after the
            preface, and hand-made edge frames, after the two bytes that pick the cuts and the target's mode;
            and requests for the target's request mode
  tls       what real clients sent over TLS (Fuzz/Seeds/tls, captured likewise: ClientHellos with and
            without ALPN and SNI), those ClientHellos with odd SNI names, CONNECT requests and authorities,
            each after the byte that picks the target's mode and the one that picks the cuts
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


PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def h2_frame(kind, flags, stream, payload=b""):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def hpack_integer(value, prefix, flags=0):
    limit = (1 << prefix) - 1
    if value < limit:
        return bytes([flags | value])
    out, value = bytearray([flags | limit]), value - limit
    while value >= 128:
        out.append(value % 128 | 0x80)
        value //= 128
    return bytes(out + bytes([value]))


def hpack(fields):
    """Literal fields without indexing, new names, no Huffman: what the target's request mode writes too."""
    out = b""
    for name, value in fields:
        name, value = name.encode() if isinstance(name, str) else name, value.encode() if isinstance(value, str) else value
        out += b"\x00" + hpack_integer(len(name), 7) + name + hpack_integer(len(value), 7) + value
    return out


def request_block(method="POST", path="/push", extra=()):
    return hpack([(":method", method), (":path", path), (":scheme", "http"), (":authority", "localhost"), *extra])


def settings(*pairs):
    return h2_frame(4, 0, 0, b"".join(key.to_bytes(2, "big") + value.to_bytes(4, "big") for key, value in pairs))


BODY = b'{"aps":{"alert":"edge"}}'


def http2_edges():
    """Frames after the preface that real clients rarely send but may: each a raw-mode input."""
    apns = "/3/device/" + "ab" * 32
    post = request_block("POST", apns, [("apns-push-type", "alert")])
    yield settings((4, 0)) + h2_frame(1, 4, 1, post) + h2_frame(0, 1, 1, BODY)   # window 0: the reply waits
    yield settings((4, 0)) + h2_frame(1, 5, 1, request_block("GET", "/state")) + h2_frame(8, 0, 1, (100).to_bytes(4, "big"))
    yield settings((5, 16777215), (1, 0), (3, 1), (2, 0), (6, 64)) + h2_frame(1, 5, 1, request_block("GET", "/state"))
    yield settings() + h2_frame(1, 0x0C, 1, bytes([7]) + post + b"\0" * 7) + h2_frame(0, 0x09, 1, bytes([3]) + BODY + b"\0\0\0")   # padded
    yield settings() + h2_frame(1, 0x24, 1, (3).to_bytes(4, "big") + bytes([15]) + post) + h2_frame(0, 1, 1, BODY)   # priority
    yield settings() + h2_frame(1, 0, 1, post[:10]) + h2_frame(9, 0, 1, post[10:20]) + h2_frame(9, 4, 1, post[20:]) + h2_frame(0, 1, 1, BODY)
    yield settings() + h2_frame(1, 0, 1, post[:10]) + h2_frame(0, 1, 1, BODY)   # CONTINUATION missing
    yield settings() + h2_frame(1, 4, 1, post) + h2_frame(3, 0, 1, (8).to_bytes(4, "big")) + h2_frame(1, 5, 3, request_block("GET", "/healthz"))
    yield settings() + h2_frame(6, 0, 0, b"pingpong") + h2_frame(6, 1, 0, b"pingpong") + h2_frame(7, 0, 0, (0).to_bytes(8, "big") + b"bye")
    yield settings() + h2_frame(8, 0, 0, (0x7FFFFFFF).to_bytes(4, "big")) + h2_frame(8, 0, 0, (0x7FFFFFFF).to_bytes(4, "big"))
    yield settings() + h2_frame(1, 5, 1, request_block("GET", "/healthz")) + h2_frame(0, 1, 1, BODY)   # DATA on a closed stream
    yield settings() + h2_frame(1, 5, 0, post) + h2_frame(1, 5, 2, post)   # stream 0, an even stream
    yield settings() + h2_frame(5, 4, 1, (2).to_bytes(4, "big") + post)   # PUSH_PROMISE from a client
    yield settings() + h2_frame(0xFA, 0xFF, 7, b"unknown") + h2_frame(1, 5, 1, request_block("GET", "/healthz"))
    yield settings() + h2_frame(1, 5, 1, b"\x3f\xe1\xff\xff\x0f" + request_block("GET", "/healthz"))   # a table size update
    yield settings() + h2_frame(2, 0, 1, (1).to_bytes(4, "big") + b"\x10")   # depends on itself
    yield settings() + h2_frame(1, 4, 1, post) + h2_frame(0, 0, 1, BODY) + h2_frame(1, 5, 1, hpack([("x-trailer", "t")]))   # trailers
    yield settings() + h2_frame(1, 4, 1, post)   # never finished: the timeout
    yield settings() + h2_frame(1, 4, 1, request_block("POST", "/push", [("content-length", "3")])) + h2_frame(0, 1, 1, BODY)
    yield settings() + h2_frame(1, 4, 1, request_block("POST", "/push", [("content-length", "999999")])) + h2_frame(0, 1, 1, BODY)
    yield settings() + h2_frame(1, 5, 1, request_block("GET", "/healthz", [("connection", "close")]))
    yield settings() + h2_frame(1, 5, 1, request_block("GET", "/healthz", [("Upper-Case", "x")]))
    yield settings() + h2_frame(1, 5, 1, request_block("GET", "/healthz", [("x-bad", "a\r\nb")]))
    yield settings() + h2_frame(1, 5, 1, request_block("GET", "/healthz", [("apns-id", "\u009b31m")]))
    yield settings() + b"".join(h2_frame(1, 5, 2 * n + 1, request_block("GET", "/healthz")) for n in range(40))
    yield settings() + b"".join(h2_frame(1, 4, 2 * n + 1, post) + h2_frame(3, 0, 2 * n + 1, (8).to_bytes(4, "big")) for n in range(30))
    yield settings() + h2_frame(1, 4, 1, post) + h2_frame(0, 0, 1, b"x" * 5000) + h2_frame(0, 1, 1, b"")   # past the body limit
    yield settings() + h2_frame(1, 5, 1, request_block("GET", "/state", [("x-big", "v" * 1100)]))   # past the header limit


def http2():
    folder = ROOT / "Fuzz/Seeds/http2"
    for i, path in enumerate(sorted(folder.iterdir()) if folder.is_dir() else []):
        data = path.read_bytes()
        data = data[len(PREFACE):] if data.startswith(PREFACE) else data
        for cuts, flags in ((0, 0), (1, 0), (0x80 + i, 1), (9 + i % 40, 2), (0, 0x13)):
            yield bytes([cuts, flags]) + data
    for i, edge in enumerate(http2_edges()):
        yield bytes([0x80 + i * 7 % 128, i % 4 | (0x08 if i % 3 == 0 else 0)]) + edge
        yield bytes([0, 0]) + edge
    # The request mode: a control byte, fields as (name, value) picks from the target's tables or literal
    # (a byte past the table's end: that many bytes follow), then the body's length and bytes.
    yield bytes([0, 0x04]) + bytes([0x03, 0, 0, 1, 7, 2, 17]) + bytes([len(BODY)]) + BODY
    yield bytes([0x85, 0x04]) + bytes([0x44, 0, 0, 1, 7, 2, 17, 4, 29])   # a body past the limit, declared
    yield bytes([3, 0x05]) + bytes([0x24, 0, 1, 1, 13, 2, 17, 3, 19]) + bytes([0x02, 0, 0, 1, 23 + 31 + 2]) + b"/x"
    yield bytes([0, 0x06]) + bytes([0x05, 0, 0, 1, 7, 2, 17, 3, 19, 22, 31 + 5]) + b"\x1b[31m" + bytes([2]) + b"{}"


def tls_captures():
    folder = ROOT / "Fuzz/Seeds/tls"
    return [path.read_bytes() for path in sorted(folder.iterdir())] if folder.is_dir() else []


def odd_names(name):
    """Names of the same length as `name` (so a ClientHello's lengths stay right) that are no host name."""
    n = len(name)
    odd = [b"\x1b]0;pwn\x07" + b"a" * (n - 8), b"a" * (n - 2) + b"\xc2\x9b", b"." * n, b"-" + b"a" * (n - 2) + b"-",
           b"a" * (n - 4) + b"..bc", b"1:2:" + b"3" * (n - 4), b"a,DNS:evil.com"[:n].ljust(n, b"x"), b"A" * n, b"\x7f" * n,
           b"_" * n, b"a" * (n - 1) + b".", b"\xff\xfe" + b"a" * (n - 2), b"a%00" + b"b" * (n - 4)]
    return [name for name in odd if len(name) == n]


def with_server_name(data, name):
    """The ClientHello that begins `data` (one record) with its SNI name replaced by `name` of any length,
    every length around it fixed up; None when `data` holds no such hello."""
    if len(data) < 5 or data[0] != 0x16 or len(data) < 5 + int.from_bytes(data[3:5], "big") or data[5] != 1:
        return None
    hello = data[5:5 + int.from_bytes(data[3:5], "big")]
    at = 4 + 2 + 32
    at += 1 + hello[at]                                        # session id
    at += 2 + int.from_bytes(hello[at:at + 2], "big")          # cipher suites
    at += 1 + hello[at]                                        # compression methods
    head, extensions = hello[4:at], hello[at + 2:at + 2 + int.from_bytes(hello[at:at + 2], "big")]
    out, i, found = b"", 0, False
    while i + 4 <= len(extensions):
        kind, length = int.from_bytes(extensions[i:i + 2], "big"), int.from_bytes(extensions[i + 2:i + 4], "big")
        body = extensions[i + 4:i + 4 + length]
        if kind == 0:
            found = True
            entry = b"\x00" + len(name).to_bytes(2, "big") + name
            body = len(entry).to_bytes(2, "big") + entry
        out += kind.to_bytes(2, "big") + len(body).to_bytes(2, "big") + body
        i += 4 + length
    if not found:
        return None
    message = head + len(out).to_bytes(2, "big") + out
    message = b"\x01" + len(message).to_bytes(3, "big") + message
    return b"\x16" + data[1:3] + len(message).to_bytes(2, "big") + message


# SNI names no real client sends, at any length: the limits of HostName (253 bytes), of a certificate's
# CN (64), of the extension (255); control bytes, NUL, IP literals, a colon that is no IPv6 address.
HOSTILE_NAMES = [b"a" * 253, b"a" * 254, b"b" * 255, b"c" * 64, b"d" * 65, b"x." * 120 + b"com", b"", b"\x1b[2J\x1b]0;t\x07",
                 b"evil\x00.example", b"\xc2\x9b31m", b"::1", b"127.0.0.1", b"1:2", b"a:b:c", b"[::1]", b"API.PUSH.APPLE.COM",
                 b"\xe2\x80\xaeexample", b"*.example.com", b"a b", b"\xff" * 40]


def tls():
    captures = tls_captures()
    for i, data in enumerate(captures):
        for cuts in (0, 1, 0x80 + i, 5 + i):
            yield bytes([0, cuts]) + data
        for sni in (b"api.push.apple.com", b"fcm.googleapis.com", b"exp.host", b"api.development.push.apple.com"):
            if sni in data:
                for j, name in enumerate(odd_names(sni)):
                    yield bytes([0, 0x80 + j]) + data.replace(sni, name, 1)
    hello = next((data for data in captures if with_server_name(data, b"x")), None)
    for j, name in enumerate(HOSTILE_NAMES if hello else []):
        yield bytes([j % 3 and 2, 0]) + with_server_name(hello, name)
    # The first bytes of a plain connection, CONNECT among them (mode 1).
    hello = next((data for data in captures if data.startswith(b"\x16")), b"\x16\x03\x01\x00\x05\x01\x00\x00\x01\x00")
    for authority in (b"api.push.apple.com:443", b"exp.host:443", b"[::1]:443", b"127.0.0.1:8443", b"relayed.example:443",
                      b"a..b:443", b"-x-:443", b"host:0", b"host:99999", b":443", b"[::1]", b"[::1:443", b"h\x1bst:443",
                      b"api.push.apple.com:443:443", b"x" * 300 + b":443", b"[fe80::1%eth0]:443", b"HOST.Example:00443"):
        request = b"CONNECT " + authority + b" HTTP/1.1\r\nHost: " + authority + b"\r\n\r\n"
        yield bytes([1, 0]) + request + hello
        yield bytes([3, 0]) + authority
    for first in (b"{\"aps\":{}}\n", b"  \r\n[1]\n", b"GET /healthz HTTP/1.1\r\n\r\n", PREFACE, b"PRI * HTTP/1.1\r\n\r\n",
                  b"\x16\x03\x01", b" " * 10 + b"\x16", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\x00"):
        yield bytes([1, 1]) + first


def main():
    kind, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    seeds = {"payloads": payloads, "http": http, "ndjson": ndjson, "strings": strings, "formats": formats,
             "http2": http2, "tls": tls}[kind]()
    count = 0
    for seed in seeds:
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        count += 1
    print(f"{count} {kind} seeds in {out}")


if __name__ == "__main__":
    main()
