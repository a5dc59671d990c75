"""Sends one FCM message with firebase-admin, as its documentation shows, with a fake service-account
file: google-auth first fetches an OAuth token from oauth2.googleapis.com, then messaging.send calls
FCM v1. Both go through HTTPS_PROXY and trust REQUESTS_CA_BUNDLE.
Usage: firebase_send.py SERVICE_ACCOUNT_FILE DEVICE_TOKEN TITLE BODY
"""
import json
import sys

import firebase_admin
from firebase_admin import credentials, messaging

from fake_credentials import write_service_account

path, token, title, body = sys.argv[1:5]
write_service_account(path)
firebase_admin.initialize_app(credentials.Certificate(path))
name = messaging.send(messaging.Message(token=token, notification=messaging.Notification(title=title, body=body),
                                        data={"conversationId": "room_7"}))
print(json.dumps({"name": name}))
