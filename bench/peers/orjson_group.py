#!/usr/bin/env python3
"""Peer for `shade state`: parses each line of a recording with orjson and groups the pushes by
conversation (the envelope's payload, its data.conversationId), keeping a count and the newest body
per conversation. It does a fraction of Shade's work: no shapes, platforms, replacement or output."""
import sys
import orjson

groups = {}
plain = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        value = orjson.loads(line)
        payload = value.get("payload", value) if isinstance(value, dict) else None
        data = payload.get("data") if isinstance(payload, dict) else None
        room = data.get("conversationId") if isinstance(data, dict) else None
        if room is None:
            plain += 1
            continue
        count, _ = groups.get(room, (0, None))
        groups[room] = (count + 1, payload.get("body"))
print(f"{len(groups)} conversations, {plain} other pushes")
