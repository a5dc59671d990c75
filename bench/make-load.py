#!/usr/bin/env python3
"""Writes a recording of N pushes (envelopes, NDJSON) that mixes the shapes Shade meets:
conversation pushes of seed 000 over many rooms, FCM legacy plain notifications with tags,
APNs alerts with collapse ids and threads, silent data-only pushes."""
import json, random, sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
out = sys.argv[2] if len(sys.argv) > 2 else "load.jsonl"
rng = random.Random(42)
words = "the bike is still available tonight dinner at eight you are within miles of the creek 你好 周末 有空吗 سلام دوچرخه".split()

def text(k):
    return " ".join(rng.choice(words) for _ in range(k))

with open(out, "w", encoding="utf-8") as f:
    for i in range(n):
        ms = i * 7
        at = f"2026-11-30T10:{(ms // 60000) % 60:02d}:{(ms // 1000) % 60:02d}.{ms % 1000:03d}Z"
        kind = i % 10
        if kind < 5:
            room = rng.randrange(500)
            sender = rng.randrange(40)
            payload = {"userId": "user_kian", "title": f"user {sender}", "body": text(8),
                       "data": {"conversationId": f"room_{room}", "senderName": f"user {sender}", "senderId": f"u{sender}",
                                "conversationIsGroup": "true" if room % 3 == 0 else "false", "conversationTitle": f"Room {room}"}}
            env = {"at": at, "via": "http", "path": "/push/send-to-user", "headers": {}, "payload": payload}
        elif kind < 7:
            payload = {"to": "fcm-token", "notification": {"title": text(3), "body": text(10), "tag": f"t{rng.randrange(100)}"},
                       "data": {"orderId": str(i)}}
            env = {"at": at, "via": "fcm", "path": "/fcm/send", "headers": {}, "payload": payload}
        elif kind < 9:
            payload = {"aps": {"alert": {"title": text(3), "body": text(12)}, "thread-id": f"th{rng.randrange(20)}", "badge": i % 9}}
            env = {"at": at, "via": "apns", "path": "/3/device/ab12", "headers": {"apns-collapse-id": f"c{rng.randrange(300)}",
                   "apns-topic": "com.example.app"}, "payload": payload}
        else:
            env = {"at": at, "via": "fcm", "path": "/fcm/send", "headers": {}, "payload": {"data": {"sync": str(i)}, "priority": "high"}}
        f.write(json.dumps(env, ensure_ascii=False) + "\n")
