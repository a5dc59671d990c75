# Sends RATE NDJSON pushes a second for SECONDS over a unix socket, in batches every 10 ms paced by the
# clock (send-to-user pushes into 50 conversations), reading the acknowledgements as they come; prints
# "ACKED SENT SECONDS". Used by Tests/ShadeEndToEndTests/FloodTests.swift and bench/run.sh's flood row.
# Usage: python3 bench/peers/flood_ndjson.py SOCKET RATE SECONDS
import socket, sys, threading, time
path, rate, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
acked = [0]
def read():
    while True:
        chunk = s.recv(1 << 16)
        if not chunk: break
        acked[0] += chunk.count(b"\n")
reader = threading.Thread(target=read, daemon=True)
reader.start()
def line(i):
    return ('{"userId":"me","title":"user %d","body":"message %d of the flood",'
            '"data":{"conversationId":"room_%d","senderName":"user %d","senderId":"u%d"}}\n' % (i % 97, i, i % 50, i % 97, i % 97)).encode()
total = int(rate * seconds)
per_tick = max(1, rate // 100)
start = time.monotonic()
sent = 0
while sent < total:
    due = min(total, int((time.monotonic() - start) * rate) + per_tick)
    if due > sent:
        s.sendall(b"".join(line(i) for i in range(sent, due)))
        sent = due
    time.sleep(0.01)
deadline = time.monotonic() + 30
while acked[0] < total and time.monotonic() < deadline: time.sleep(0.05)
print(acked[0], total, "%.2f" % (time.monotonic() - start))
