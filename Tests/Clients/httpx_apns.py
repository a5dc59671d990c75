"""Sends one APNs push with httpx over HTTP/2, as apns2-style libraries (pyapns-client, kalyke) do:
https://api.push.apple.com through HTTPS_PROXY, trusting SSL_CERT_FILE, ALPN h2.
Usage: httpx_apns.py DEVICE_TOKEN ALERT
"""
import json
import sys

import httpx

with httpx.Client(http2=True) as client:
    response = client.post(f"https://api.push.apple.com/3/device/{sys.argv[1]}",
                           headers={"apns-topic": "com.example.app", "apns-push-type": "alert",
                                    "authorization": "bearer dummy"},
                           json={"aps": {"alert": sys.argv[2]}})
    print(json.dumps({"status": response.status_code, "http_version": response.http_version,
                      "apns_id": response.headers.get("apns-id"), "body": response.text}))
