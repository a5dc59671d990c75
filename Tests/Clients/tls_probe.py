"""TLS as Python's ssl module (OpenSSL) speaks it, over memory BIOs so the test decides how the bytes
go out, for the transport tests.

  tls_probe.py bytewise PORT CA SNI   the handshake and a request, every write one byte; prints the reply
  tls_probe.py cut PORT               half a ClientHello, then close
  tls_probe.py stall PORT             half a ClientHello, then wait for the server to close; prints how long
"""
import json
import socket
import ssl
import sys
import time


def client_hello(context: ssl.SSLContext, sni):
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname=sni)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return tls, incoming, outgoing


def bytewise(port: int, ca: str, sni: str) -> None:
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(["http/1.1"])
    tls, incoming, outgoing = client_hello(context, sni)
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)

    def send_pending():
        for byte in outgoing.read():
            sock.sendall(bytes([byte]))
            time.sleep(0.0005)

    while True:
        send_pending()
        try:
            tls.do_handshake()
            break
        except ssl.SSLWantReadError:
            data = sock.recv(65535)
            if not data:
                raise SystemExit("closed during the handshake")
            incoming.write(data)
    send_pending()
    tls.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    send_pending()
    reply = b""
    while True:
        try:
            chunk = tls.read(65535)
            if not chunk:
                break
            reply += chunk
        except ssl.SSLWantReadError:
            data = sock.recv(65535)
            if not data:
                break
            incoming.write(data)
        except ssl.SSLZeroReturnError:
            break
    names = [value for kind, value in tls.getpeercert().get("subjectAltName", ())]
    print(json.dumps({"alpn": tls.selected_alpn_protocol(), "names": names, "reply": reply.decode()}))


def half_hello(port: int):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    _, _, outgoing = client_hello(context, "api.push.apple.com")
    hello = outgoing.read()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(hello[: len(hello) // 2])
    return sock, len(hello)


def cut(port: int) -> None:
    sock, length = half_hello(port)
    sock.close()
    print(json.dumps({"sent": length // 2, "of": length}))


def stall(port: int) -> None:
    sock, _ = half_hello(port)
    started = time.monotonic()
    data = sock.recv(65535)
    print(json.dumps({"closed_after": round(time.monotonic() - started, 2), "received": len(data)}))


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "bytewise":
        bytewise(port, sys.argv[3], sys.argv[4])
    elif mode == "cut":
        cut(port)
    else:
        stall(port)
