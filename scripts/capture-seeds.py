#!/usr/bin/env python3
"""Captures what real clients send to Shade, as seeds for the HTTP/2 and TLS fuzz targets.

  scripts/capture-seeds.py [SHADE]     (SHADE: the binary; default .build/debug/shade)

Starts `SHADE listen --headless` on a loopback port with a CA of its own, puts a recording relay in
front of it, and points real clients at the relay: curl --http2-prior-knowledge, h2load and nghttp (h2c),
openssl s_client (with and without ALPN, with and without SNI, TLS 1.2 and 1.3), curl over https,
Python's ssl (as aioapns: no ALPN, then the preface) and, when the client venv is there
(scripts/client-venv.sh), the h2 library and httpx with http2=True. Every connection's client-to-server
bytes are written, whole and as the client sent them, to Fuzz/Seeds/http2/NAME (cleartext HTTP/2) or
Fuzz/Seeds/tls/NAME (TLS), NAME saying which client did what. scripts/fuzz-seeds.py turns them into the
targets' seeds. A client that is not installed is skipped (and said so); nothing leaves this machine.
"""
import os
import pathlib
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Fuzz/Seeds"
TOKEN = "ab" * 32
BODY = b'{"aps":{"alert":{"title":"Seed","body":"captured"},"badge":3},"room":"42"}'


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Recorder:
    """A relay on 127.0.0.1 that forwards to Shade and keeps what each client sent, per label."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.label = None
        self.captured = {}
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                label = self.label
                index = sum(1 for k in self.captured if k[0] == label)
                key = (label, index)
                self.captured[key] = bytearray()
            server = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self.pipe, args=(client, server, key), daemon=True).start()
            threading.Thread(target=self.pipe, args=(server, client, None), daemon=True).start()

    def pipe(self, source, sink, key):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if key is not None:
                    with self.lock:
                        self.captured[key] += data
                sink.sendall(data)
        except OSError:
            pass
        finally:
            try:
                sink.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def run(self, label, action):
        with self.lock:
            self.label = label
        try:
            action()
        except (OSError, subprocess.SubprocessError, ssl.SSLError) as error:
            print(f"capture: {label}: {error}", file=sys.stderr)
        time.sleep(0.3)   # the relay's last bytes


def tool(name):
    found = shutil.which(name)
    if not found:
        print(f"capture: {name} is not installed: skipped", file=sys.stderr)
    return found


def run(args, stdin=None):
    subprocess.run(args, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20, check=False)


def main():
    shade = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build/debug/shade")
    home = tempfile.mkdtemp(prefix="shade-capture-")
    port = free_port()
    env = dict(os.environ, XDG_RUNTIME_DIR=home, XDG_DATA_HOME=home)
    server = subprocess.Popen([shade, "listen", "--headless", "--port", str(port), "--ca-dir", f"{home}/ca",
                               "--socket", f"{home}/shade.sock"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        record = Recorder(port)
        url = f"http://127.0.0.1:{record.port}"
        apns = f"/3/device/{TOKEN}"
        body = pathlib.Path(home) / "body.json"
        body.write_bytes(BODY)
        h2c, tls = [], []

        if tool("curl"):
            h2c += ["curl-h2c-apns-post", "curl-h2c-get-state", "curl-h2c-fcm-v1-post", "curl-h2c-two-requests"]
            record.run("curl-h2c-apns-post", lambda: run([
                "curl", "-s", "--http2-prior-knowledge", "-H", "apns-push-type: alert", "-H", "apns-topic: com.example.app",
                "-H", "apns-priority: 10", "-H", "apns-collapse-id: room_42", "-H", "apns-expiration: 0",
                "-H", "content-type: application/json", "--data-binary", f"@{body}", url + apns]))
            record.run("curl-h2c-get-state", lambda: run(["curl", "-s", "--http2-prior-knowledge", url + "/state?platform=all"]))
            record.run("curl-h2c-fcm-v1-post", lambda: run([
                "curl", "-s", "--http2-prior-knowledge", "-H", "authorization: Bearer ya29.seed", "-H", "content-type: application/json",
                "--data-binary", '{"message":{"token":"t0","notification":{"title":"T","body":"B"},"android":{"priority":"high"}}}',
                url + "/v1/projects/demo/messages:send"]))
            record.run("curl-h2c-two-requests", lambda: run([
                "curl", "-s", "--http2-prior-knowledge", url + "/healthz", "--next", "--http2-prior-knowledge",
                "--data-binary", '{"to":"ExponentPushToken[seed]","title":"T","body":"B"}', url + "/--/api/v2/push/send"]))
            tls += ["curl-https-h2-sni", "curl-https-http1"]
            resolve = f"api.push.apple.com:{record.port}:127.0.0.1"
            record.run("curl-https-h2-sni", lambda: run([
                "curl", "-s", "-k", "--http2", "--resolve", resolve, "--data-binary", f"@{body}",
                f"https://api.push.apple.com:{record.port}{apns}"]))
            record.run("curl-https-http1", lambda: run(["curl", "-s", "-k", "--http1.1", f"https://127.0.0.1:{record.port}/healthz"]))
        if tool("h2load"):
            h2c.append("h2load-apns-posts")
            record.run("h2load-apns-posts", lambda: run([
                "h2load", "-n", "4", "-c", "1", "-m", "2", "-d", str(body), "-H", "apns-push-type: alert",
                "-H", "apns-topic: com.example.app", url + apns]))
        if tool("nghttp"):
            h2c.append("nghttp-post-push")
            record.run("nghttp-post-push", lambda: run(["nghttp", "-d", str(body), "-H", "x-seed: 1", url + "/push"]))
        if tool("openssl"):
            target = f"127.0.0.1:{record.port}"
            variants = {
                "openssl-s_client-alpn-h2-sni": ["-servername", "api.push.apple.com", "-alpn", "h2"],
                "openssl-s_client-alpn-both-sni": ["-servername", "fcm.googleapis.com", "-alpn", "h2,http/1.1"],
                "openssl-s_client-no-alpn-sni": ["-servername", "exp.host"],
                "openssl-s_client-no-sni": ["-noservername"],
                "openssl-s_client-tls12-alpn-h2": ["-tls1_2", "-servername", "api.development.push.apple.com", "-alpn", "h2"],
                "openssl-s_client-ip-sni": ["-servername", "127.0.0.1", "-alpn", "http/1.1"],
            }
            for name, extra in variants.items():
                tls.append(name)
                record.run(name, lambda extra=extra: run(["openssl", "s_client", "-connect", target, "-quiet", *extra],
                                                         stdin=b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))

        def python_ssl(alpn, sni, payload):
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            if alpn:
                context.set_alpn_protocols(alpn)
            with socket.create_connection(("127.0.0.1", record.port), timeout=5) as raw:
                with context.wrap_socket(raw, server_hostname=sni) as tls_socket:
                    tls_socket.sendall(payload)
                    try:
                        tls_socket.recv(65536)
                    except (OSError, ssl.SSLError):
                        pass
        preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes.fromhex("000000040000000000")
        tls += ["python-ssl-no-alpn-preface", "python-ssl-alpn-http1"]
        record.run("python-ssl-no-alpn-preface", lambda: python_ssl(None, "api.push.apple.com", preface))
        record.run("python-ssl-alpn-http1", lambda: python_ssl(["http/1.1"], "oauth2.googleapis.com",
                                                              b"POST /token HTTP/1.1\r\nHost: oauth2.googleapis.com\r\nContent-Length: 0\r\n\r\n"))

        venv = ROOT / ".build/clients/venv/bin/python"
        if venv.exists():
            h2c.append("python-h2-apns-post")
            script = f"""
import socket, h2.connection, h2.config
s = socket.create_connection(("127.0.0.1", {record.port}))
c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
c.initiate_connection()
c.send_headers(1, [(":method", "POST"), (":path", "{apns}"), (":scheme", "http"), (":authority", "localhost"),
                   ("apns-push-type", "alert"), ("apns-topic", "com.example.app")])
c.send_data(1, {BODY!r}, end_stream=True)
c.send_headers(3, [(":method", "GET"), (":path", "/state"), (":scheme", "http"), (":authority", "localhost")], end_stream=True)
c.ping(b"12345678")
s.sendall(c.data_to_send())
s.settimeout(2)
try:
    while True:
        data = s.recv(65536)
        if not data: break
        for event in c.receive_data(data):
            pass
        s.sendall(c.data_to_send())
except OSError:
    pass
c.close_connection()
s.sendall(c.data_to_send())
"""
            record.run("python-h2-apns-post", lambda: run([str(venv), "-c", script]))
            tls.append("python-httpx-http2")
            httpx_script = f"""
import httpx
with httpx.Client(http2=True, verify=False) as client:
    client.post("https://127.0.0.1:{record.port}{apns}", content={BODY!r}, headers={{"apns-topic": "com.example.app"}})
"""
            record.run("python-httpx-http2", lambda: run([str(venv), "-c", httpx_script]))
        else:
            print("capture: no client venv (scripts/client-venv.sh): the h2 library and httpx skipped", file=sys.stderr)

        for kind, labels in (("http2", h2c), ("tls", tls)):
            folder = OUT / kind
            folder.mkdir(parents=True, exist_ok=True)
            for (label, index), data in sorted(record.captured.items(), key=lambda item: (item[0][0] or "", item[0][1])):
                if label in labels and data:
                    name = label if index == 0 else f"{label}-{index + 1}"
                    (folder / name).write_bytes(bytes(data))
                    print(f"{kind}/{name}: {len(data)} bytes")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
