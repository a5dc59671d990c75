"""Sends one APNs push with pyapns-client (httpx, HTTP/2), as its README shows, with a dummy .p8 key:
https://api.push.apple.com through HTTPS_PROXY (httpx reads it), trusting SSL_CERT_FILE.
Usage: pyapns_client_send.py KEY_FILE DEVICE_TOKEN TITLE BODY
"""
import json
import sys

from pyapns_client import APNSClient, IOSNotification, IOSPayload, IOSPayloadAlert

from fake_credentials import apns_p8_key

key_path, token, title, body = sys.argv[1:5]
with open(key_path, "w") as file:
    file.write(apns_p8_key())
client = APNSClient(mode=APNSClient.MODE_PROD, root_cert_path=None, auth_key_path=key_path,
                    auth_key_id="ABC123DEFG", team_id="DEF123GHIJ")
alert = IOSPayloadAlert(title=title, body=body)
notification = IOSNotification(payload=IOSPayload(alert=alert), topic="com.example.app")
client.push(notification=notification, device_token=token)   # raises on any refusal
print(json.dumps({"pushed": True}))
