#!/usr/bin/env bash
# HTTP/2 ingest and TLS handshakes: Shade (release, headless) against nginx in the same run.
#   ingest:     h2load -c 16 -m 10, APNs-style POSTs (/3/device/TOKEN, apns-* headers, a 90-byte alert),
#               h2c with prior knowledge, against shade listen and against nginx's `http2` `return 200`
#   handshakes: openssl s_time -new (a full TLS handshake per connection) against both, over TLS 1.3
# Prints one line per measurement and the ratios. Needs h2load (nghttp2-client), nginx (nginx-light), openssl.
# Usage: bench/http2.sh [REQUESTS]   (default 200000); bench/run.sh may call it.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200000}
work=$PWD/.build/bench-http2
rm -rf "$work"
mkdir -p "$work/nginx" "$work/ca"
swift build -c release --product shade >/dev/null
shade="$(swift build -c release --show-bin-path)/shade"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
shade_port=$(free_port); nginx_port=$(free_port); nginx_tls_port=$(free_port)

# The CA and a leaf for localhost (nginx serves the same kind of certificate Shade makes: P-256).
"$shade" trust --ca-dir "$work/ca" >/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
  -keyout "$work/nginx/key.pem" -out "$work/nginx/cert.pem" 2>/dev/null

cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log $work/nginx/error.log;
pid $work/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx;
  server {
    listen 127.0.0.1:$nginx_port http2;
    listen 127.0.0.1:$nginx_tls_port ssl http2;
    ssl_certificate $work/nginx/cert.pem;
    ssl_certificate_key $work/nginx/key.pem;
    ssl_protocols TLSv1.3;
    ssl_session_cache off;
    ssl_session_tickets off;
    location / { return 200; }
  }
}
CONF

"$shade" listen --headless --port "$shade_port" --socket "$work/shade.sock" --ca-dir "$work/ca" >/dev/null 2>"$work/shade.err" &
shade_pid=$!
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
nginx_pid=$!
trap 'kill $shade_pid $nginx_pid 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -s "http://127.0.0.1:$shade_port/healthz" >/dev/null && curl -s --http2-prior-knowledge "http://127.0.0.1:$nginx_port/" >/dev/null && break
  sleep 0.05
done

printf '{"aps":{"alert":{"title":"Dana","body":"Is the bike still available?"},"badge":1,"sound":"default"}}' > "$work/payload.json"
ingest() {   # URL → requests per second
  h2load -n "$N" -c 16 -m 10 -d "$work/payload.json" -H 'apns-push-type: alert' -H 'apns-topic: com.example.app' \
    -H 'apns-priority: 10' "$1" | tee "$work/h2load.out" | awk '/^finished in/ { gsub(",", "", $4); print $4 }'
}
handshakes() {   # PORT → new TLS connections per second (one full handshake each)
  openssl s_time -connect "127.0.0.1:$1" -new -time 5 -tls1_3 2>/dev/null | awk '/real seconds/ { printf "%.0f\n", $1 / $4 }' | head -1
}
token=a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90
shade_rps=$(ingest "http://127.0.0.1:$shade_port/3/device/$token")
grep -q "requests: $N total, $N started, $N done, $N succeeded" "$work/h2load.out" || { cat "$work/h2load.out"; exit 1; }
nginx_rps=$(ingest "http://127.0.0.1:$nginx_port/3/device/$token")
# The transport alone: the same h2load against GET /healthz (Shade's cheapest route) and nginx's GET.
transport() { h2load -n "$N" -c 16 -m 10 "$1" | awk '/^finished in/ { gsub(",", "", $4); print $4 }'; }
shade_get=$(transport "http://127.0.0.1:$shade_port/healthz")
nginx_get=$(transport "http://127.0.0.1:$nginx_port/")
shade_hs=$(handshakes "$shade_port")
nginx_hs=$(handshakes "$nginx_tls_port")
echo "HTTP/2 ingest (h2load -n $N -c 16 -m 10, APNs POSTs):  shade $shade_rps req/s   nginx return 200 $nginx_rps req/s"
echo "HTTP/2 GET, transport only (same h2load):             shade /healthz $shade_get req/s   nginx $nginx_get req/s"
echo "TLS 1.3 handshakes (openssl s_time -new, 5 s):       shade $shade_hs conn/s   nginx $nginx_hs conn/s"
python3 -c "import sys; s, n, sh, nh, g, ng = map(float, sys.argv[1:]); print(f'ratio: shade is {s / n:.0%} of nginx for HTTP/2 ingest, {g / ng:.0%} for HTTP/2 GETs, {sh / nh:.0%} for TLS handshakes')" \
  "$shade_rps" "$nginx_rps" "$shade_hs" "$nginx_hs" "$shade_get" "$nginx_get"
