"""Sends one FCM message with firebase-admin, as its documentation shows, with a fake service-account
file: google-auth first fetches an OAuth token from oauth2.googleapis.com, then messaging.send calls
FCM v1. Both go through HTTPS_PROXY and trust REQUESTS_CA_BUNDLE.
Usage: firebase_send.py SERVICE_ACCOUNT_FILE DEVICE_TOKEN TITLE BODY
"""
import json
import sys

import firebase_admin
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from firebase_admin import credentials, messaging


def write_fake_service_account(path: str) -> None:
    """The JSON a Firebase console download holds, with a freshly made (unregistered) key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    account = {
        "type": "service_account", "project_id": "shade-demo", "private_key_id": "0123456789abcdef",
        "private_key": pem, "client_email": "firebase-adminsdk@shade-demo.iam.gserviceaccount.com",
        "client_id": "1234567890", "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    with open(path, "w") as file:
        json.dump(account, file)


path, token, title, body = sys.argv[1:5]
write_fake_service_account(path)
firebase_admin.initialize_app(credentials.Certificate(path))
name = messaging.send(messaging.Message(token=token, notification=messaging.Notification(title=title, body=body),
                                        data={"conversationId": "room_7"}))
print(json.dumps({"name": name}))
