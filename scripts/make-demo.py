#!/usr/bin/env python3
"""Writes Samples/demo.jsonl: a recorded session (envelopes, DESIGN.md) of about a minute that
mixes every seed scenario, for `shade demo`. Run it again after changing the script."""
import json, datetime, pathlib

start = datetime.datetime(2026, 11, 30, 10, 15, 0, tzinfo=datetime.timezone.utc)
lines = []

def at(seconds):
    t = start + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"

def send_to_user(t, title, body, data):
    lines.append({"at": at(t), "via": "http", "path": "/push/send-to-user",
                  "headers": {"content-type": "application/json"},
                  "payload": {"userId": "user_kian", "title": title, "body": body, "data": data}})

def apns(t, payload, headers):
    lines.append({"at": at(t), "via": "apns", "path": "/3/device/5e1d3c8a9b",
                  "headers": headers, "payload": payload})

def fcm(t, payload):
    lines.append({"at": at(t), "via": "fcm", "path": "/fcm/send", "headers": {"content-type": "application/json"}, "payload": payload})

ali = {"conversationId": "room_42", "senderName": "@ali", "senderId": "user_ali",
       "senderAvatarUrl": "https://cdn.example.com/avatars/ali.jpg"}
family = {"conversationId": "family_7", "conversationTitle": "Family", "conversationIsGroup": "true"}

send_to_user(0.8, "@ali", "Is the bike still available?", ali)
send_to_user(4.0, "@ali", "I can pick it up tonight", ali)
send_to_user(7.5, "Family", "Dinner at 8?", {**family, "senderName": "Maman", "senderId": "user_maman"})
fcm(10.0, {"to": "fcm-token", "notification": {"title": "Order shipped", "body": "Your order #1042 is on the way", "tag": "order_1042"}})
send_to_user(13.0, "Family", "I'll bring dessert 🍰", {**family, "senderName": "Sara", "senderId": "user_sara"})
send_to_user(15.5, "Family", "And the kids?", {**family, "senderName": "Sara", "senderId": "user_sara"})
fcm(18.0, {"to": "fcm-token", "data": {"type": "unread_sync", "unread": "3"}})
send_to_user(20.0, "王小明", "你好！周末有空吗？", {"conversationId": "dm_wang", "senderName": "王小明", "senderId": "user_wang"})
apns(23.0, {"aps": {"alert": {"loc-key": "im_loc_image", "loc-args": ["Alice", ""]}, "sound": "chime.aiff", "badge": 2}},
     {"apns-topic": "com.example.imkit", "apns-push-type": "alert"})
fcm(26.0, {"to": "fcm-token", "notification": {"title": "Order shipped", "body": "Out for delivery: arriving by 6 pm", "tag": "order_1042"}})
send_to_user(28.0, "@ali", "Does 7 work for you?", ali)
apns(31.0, {"aps": {}, "uuid": "6a1f0c2e-call", "callerName": "Alice", "hasVideo": False},
     {"apns-push-type": "voip", "apns-topic": "com.example.imkit.voip", "apns-priority": "10"})
apns(34.0, {"aps": {"alert": {"title": "Match 12", "body": "1 – 0"}, "interruption-level": "time-sensitive"}},
     {"apns-collapse-id": "score_match_12", "apns-topic": "com.example.scores"})
send_to_user(37.0, "علی", "سلام! دوچرخه هنوز هست؟", {"conversationId": "dm_ali_fa", "senderName": "علی", "senderId": "user_ali_fa"})
# A payload of no known shape: rejected, listed in errors (the demo shows the errors view too).
lines.append({"at": at(39.0), "via": "http", "path": "/push", "headers": {}, "payload": {"notification_title": "typo in the key name"}})
apns(42.0, {"aps": {"alert": {"title": "Match 12", "body": "1 – 1"}, "interruption-level": "time-sensitive"}},
     {"apns-collapse-id": "score_match_12", "apns-topic": "com.example.scores"})
send_to_user(45.0, "Family", "Yes, everyone", {**family, "senderName": "Maman", "senderId": "user_maman"})
fcm(48.0, {"to": "fcm-token", "notification": {"title": "Order shipped", "body": "Delivered to your door", "tag": "order_1042"}})
lines.append({"at": at(50.0), "via": "http", "path": "/push", "headers": {}, "payload": {
    "web_push": 8030, "notification": {"title": "New comment", "body": "Sara replied to your post", "navigate": "https://example.com/p/1",
                                       "tag": "comments", "actions": [{"action": "reply", "title": "Reply"}, {"action": "like", "title": "Like"}, {"action": "mute", "title": "Mute"}]}}})
apns(52.0, {"aps": {"content-available": 1}, "sync": "inbox"}, {"apns-push-type": "background", "apns-topic": "com.example.imkit", "apns-priority": "5"})
send_to_user(55.0, "@ali", "See you then 👍", ali)
apns(58.0, {"aps": {"alert": {"title": "Match 12", "body": "Full time: 2 – 1"}, "interruption-level": "time-sensitive"}},
     {"apns-collapse-id": "score_match_12", "apns-topic": "com.example.scores"})

out = pathlib.Path(__file__).resolve().parent.parent / "Samples" / "demo.jsonl"
with out.open("w", encoding="utf-8") as f:
    for line in lines:
        f.write(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")) + "\n")
print(f"wrote {len(lines)} pushes to {out}")

# `shade demo` must work from any directory: the executable carries the recording.
swift = out.parent.parent / "Sources" / "shade" / "Demo" / "DemoRecording.swift"
swift.parent.mkdir(parents=True, exist_ok=True)
text = out.read_text(encoding="utf-8")
assert '"""#' not in text
swift.write_text(
    "// Generated by scripts/make-demo.py from Samples/demo.jsonl: do not edit by hand.\n"
    "enum DemoRecording {\n"
    "    static let name = \"Samples/demo.jsonl\"\n"
    "    static let text = #\"\"\"\n" + text + "\"\"\"#\n}\n", encoding="utf-8")
print(f"wrote {swift}")
