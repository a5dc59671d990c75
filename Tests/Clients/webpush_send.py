"""Send Web Push messages to Shade the way a Python backend does, with pywebpush and py_vapid.

Usage: webpush_send.py SUBSCRIPTION_JSON WORKDIR
Prints one JSON line per case: {"case": …, "status": …, "body": …, "headers": {…}}.
"""
import json
import os
import sys

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid, Vapid01, b64urlencode
from pywebpush import WebPusher, WebPushException, webpush

subscription = json.loads(sys.argv[1])
workdir = sys.argv[2]
claims = {"sub": "mailto:backend@example.com"}


def report(case, response):
    print(json.dumps({"case": case, "status": response.status_code, "body": response.text,
                      "headers": {k.lower(): v for k, v in response.headers.items() if k.lower() in ("location", "ttl")}}))


def send(case, **kwargs):
    try:
        report(case, webpush(subscription_info=subscription, vapid_claims=dict(claims), **kwargs))
    except WebPushException as error:
        report(case, error.response)


# The application server's VAPID key pair, made and kept as py_vapid's users keep it: a PEM file.
vapid = Vapid()
vapid.generate_keys()
key_file = os.path.join(workdir, "vapid_private.pem")
vapid.save_key(key_file)

# 1. The usual call: JSON showNotification arguments, aes128gcm, VAPID as `vapid t=…, k=…`.
send("aes128gcm", data=json.dumps({"title": "Order shipped", "options": {"body": "Your order is on the way", "tag": "order-7"}}),
     vapid_private_key=key_file, ttl=3600, headers={"Urgency": "high", "Topic": "order7"})

# 2. The older aesgcm encoding, VAPID as `WebPush JWT` + `Crypto-Key: p256ecdsa=` (py_vapid's Vapid01), plain text.
draft = Vapid01.from_file(key_file)
send("aesgcm", data="Ali: Is the bike still available?", vapid_private_key=draft, content_encoding="aesgcm", ttl=60)

# 3. A token signed by one key, sent with another key's public half: the signature cannot verify.
other = Vapid()
other.generate_keys()
signed = vapid.sign(dict(claims, aud="http://" + subscription["endpoint"].split("/")[2], exp=int(__import__("time").time()) + 3600))
token = signed["Authorization"].split("t=")[1].split(",")[0]
other_key = b64urlencode(other.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
try:
    report("wrong-signature", webpush(subscription_info=subscription, data="never shown", ttl=60,
                                      headers={"Authorization": "vapid t=%s,k=%s" % (token, other_key)}))
except WebPushException as error:
    report("wrong-signature", error.response)

# 4. Encrypted for another subscription's keys (another browser), sent to Shade's endpoint.
stranger = ec.generate_private_key(ec.SECP256R1())
stranger_subscription = dict(subscription, keys={
    "p256dh": b64urlencode(stranger.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)),
    "auth": b64urlencode(os.urandom(16)),
})
try:
    report("other-keys", webpush(subscription_info=stranger_subscription, data="never shown", vapid_private_key=key_file,
                                 vapid_claims=dict(claims)))
except WebPushException as error:
    report("other-keys", error.response)

# 5. No TTL: pywebpush always sends one, so the request is made as its WebPusher encodes it, by hand.
encoded = WebPusher(subscription).encode(b"never shown")
headers = vapid.sign(dict(claims, aud="http://" + subscription["endpoint"].split("/")[2]))
headers["Content-Encoding"] = "aes128gcm"
report("no-ttl", requests.post(subscription["endpoint"], data=encoded["body"], headers=headers, timeout=5))
