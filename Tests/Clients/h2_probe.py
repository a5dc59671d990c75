"""HTTP/2 as the h2 library speaks it (the library httpx and aioapns use), for the transport tests.

  h2_probe.py streams PORT            many concurrent streams on one connection; prints each reply
  h2_probe.py goaway PORT             one request, prints "ready", then waits for the server's GOAWAY
  h2_probe.py bytewise PORT           the preface and a request written one byte at a time
  h2_probe.py indexing PORT           three APNs pushes; how each reply's fields came in HPACK
Cleartext with prior knowledge, so the bytes are exactly the library's.
"""
import json
import socket
import sys
import time

import h2.config
import h2.connection
import h2.events


def connect(port: int):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    return sock, conn


def headers(method: str, path: str, extra=()):
    return [(":method", method), (":path", path), (":scheme", "http"), (":authority", "localhost")] + list(extra)


def collect(sock, conn, replies, until):
    """Reads until `until(replies, terminated)` is true; returns the GOAWAY event if one came."""
    terminated = None
    while not until(replies, terminated):
        data = sock.recv(65535)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                replies.setdefault(event.stream_id, {"body": ""})["headers"] = dict(event.headers)
            elif isinstance(event, h2.events.DataReceived):
                replies.setdefault(event.stream_id, {"body": ""})["body"] += event.data.decode()
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                replies[event.stream_id]["ended"] = True
            elif isinstance(event, h2.events.StreamReset):
                replies.setdefault(event.stream_id, {"body": ""})["reset"] = int(event.error_code)
            elif isinstance(event, h2.events.ConnectionTerminated):
                terminated = event
        sock.sendall(conn.data_to_send())
    return terminated


def streams(port: int) -> None:
    sock, conn = connect(port)
    bodies = []
    for n in range(100):
        bodies.append(json.dumps({"aps": {"alert": f"stream {n}"}}).encode())
    bodies[10] = b'{"aps": '                                        # not JSON: 400 on that stream alone
    bodies[20] = json.dumps({"aps": {"alert": "x" * 5000}}).encode()  # over APNs' 4096 bytes: 413
    ids = []
    for n, body in enumerate(bodies):                       # every stream opened before any body is sent
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, headers("POST", f"/3/device/aabbccdd{n:04x}", [("apns-push-type", "alert")]))
        ids.append(sid)
    sock.sendall(conn.data_to_send())
    for sid, body in zip(ids, bodies):
        conn.send_data(sid, body, end_stream=True)
    sock.sendall(conn.data_to_send())
    replies = {}
    terminated = collect(sock, conn, replies, lambda r, t: t is not None or sum(1 for v in r.values() if v.get("ended")) == len(ids))
    summary = [{"n": n, "status": replies.get(sid, {}).get("headers", {}).get(":status"), "body": replies.get(sid, {}).get("body")}
               for n, sid in enumerate(ids)]
    # One more request on the same connection after the refusals: it was not reset.
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, headers("GET", "/healthz"), end_stream=True)
    sock.sendall(conn.data_to_send())
    collect(sock, conn, replies, lambda r, t: t is not None or r.get(sid, {}).get("ended"))
    print(json.dumps({"replies": summary, "after": replies.get(sid, {}).get("body"), "terminated": terminated is not None}))


def goaway(port: int) -> None:
    sock, conn = connect(port)
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, headers("GET", "/healthz"), end_stream=True)
    sock.sendall(conn.data_to_send())
    replies = {}
    collect(sock, conn, replies, lambda r, t: r.get(sid, {}).get("ended"))
    print("ready", flush=True)
    sock.settimeout(10)
    terminated = collect(sock, conn, replies, lambda r, t: t is not None)
    print(json.dumps(None if terminated is None else {"error_code": int(terminated.error_code),
                                                       "last_stream_id": terminated.last_stream_id}))


def bytewise(port: int) -> None:
    sock, conn = connect(port)
    sid = conn.get_next_available_stream_id()
    conn.send_headers(sid, headers("POST", "/push"))
    conn.send_data(sid, b'{"userId": "u", "title": "T", "body": "one byte at a time"}', end_stream=True)
    for byte in conn.data_to_send():
        sock.sendall(bytes([byte]))
        time.sleep(0.001)
    replies = {}
    collect(sock, conn, replies, lambda r, t: t is not None or r.get(sid, {}).get("ended"))
    print(json.dumps({"status": replies[sid]["headers"][":status"], "body": replies[sid]["body"]}))


def indexing(port: int) -> None:
    """Three APNs pushes on one connection, one after the other: each reply's status, apns-id, and the
    names of its fields HPACK sent never-indexed (hpack marks those NeverIndexedHeaderTuple)."""
    from hpack import NeverIndexedHeaderTuple
    sock, conn = connect(port)
    out = []
    for n in range(3):
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, headers("POST", f"/3/device/aabbccdd{n:04x}", [("apns-push-type", "alert")]))
        conn.send_data(sid, json.dumps({"aps": {"alert": f"push {n}"}}).encode(), end_stream=True)
        sock.sendall(conn.data_to_send())
        raw, ended = [], False
        while not ended:
            data = sock.recv(65535)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == sid:
                    raw = event.headers
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == sid:
                    ended = True
            sock.sendall(conn.data_to_send())
        fields = {name: value for name, value in raw}
        out.append({"status": fields.get(":status"), "apns-id": fields.get("apns-id"),
                    "never indexed": sorted(h[0] for h in raw if isinstance(h, NeverIndexedHeaderTuple))})
    print(json.dumps(out))


def paths(port: int) -> None:
    """Streams on one connection that go back and forth between paths and methods, one at a time:
    each is answered for its own path (Shade keeps a connection's last path to reuse its text)."""
    sock, conn = connect(port)
    plan = [("POST", "/3/device/aa01"), ("POST", "/3/device/bb02"), ("GET", "/healthz"), ("POST", "/3/device/aa01"),
            ("POST", "/3/device/aa01"), ("POST", "/nope"), ("POST", "/3/device/bb02"), ("PUT", "/3/device/bb02"),
            ("POST", "/3/device/aa0"), ("POST", "/3/device/aa01")]
    out = []
    for method, path in plan:
        sid = conn.get_next_available_stream_id()
        if method == "GET":
            conn.send_headers(sid, headers(method, path), end_stream=True)
        else:
            conn.send_headers(sid, headers(method, path, [("apns-push-type", "alert")]))
            conn.send_data(sid, json.dumps({"aps": {"alert": path}}).encode(), end_stream=True)
        sock.sendall(conn.data_to_send())
        replies = {}
        collect(sock, conn, replies, lambda r, t: t is not None or r.get(sid, {}).get("ended"))
        out.append({"method": method, "path": path, "status": replies.get(sid, {}).get("headers", {}).get(":status")})
    print(json.dumps(out))


def host(port: int) -> None:
    """GET /webpush/subscription three times on one connection: :authority alone, :authority with a
    host field, and :authority alone again. Prints each reply's body. (The h2 library refuses to send
    a host unlike :authority unless its outbound checks are off: RFC 9113 leaves the server to choose.)"""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
        client_side=True, header_encoding="utf-8", validate_outbound_headers=False))
    conn.initiate_connection()
    out = []
    for authority, extra in [("push.example:8443", []), ("push.example:8443", [("host", "other.example:9")]),
                             ("third.example", [])]:
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [(":method", "GET"), (":path", "/webpush/subscription"), (":scheme", "http"),
                                (":authority", authority)] + extra, end_stream=True)
        sock.sendall(conn.data_to_send())
        replies = {}
        collect(sock, conn, replies, lambda r, t: t is not None or r.get(sid, {}).get("ended"))
        out.append(json.loads(replies.get(sid, {}).get("body") or "null"))
    print(json.dumps(out))


if __name__ == "__main__":
    {"streams": streams, "goaway": goaway, "bytewise": bytewise, "indexing": indexing,
     "paths": paths, "host": host}[sys.argv[1]](int(sys.argv[2]))
