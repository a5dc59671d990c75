"""Send FCM v1 messages with firebase-admin, as a backend does, and report the exception class each
reply raises: the clean-up path of a backend (UnregisteredError), a rejected message
(InvalidArgumentError) and, with `shade listen --fcm-quota 3`, the back-off path (QuotaExceededError:
the three before it used the minute's quota, refused ones included, as FCM counts them). Run after `eval "$(shade env)"`: google-auth fetches an OAuth token from
oauth2.googleapis.com and messaging.send calls fcm.googleapis.com, both through HTTPS_PROXY.

Usage: fcm_admin.py SERVICE_ACCOUNT_FILE UNREGISTERED_TOKEN
"""
import json
import sys

import firebase_admin
from firebase_admin import credentials, exceptions, messaging

from fake_credentials import write_service_account

path, unregistered = sys.argv[1], sys.argv[2]
write_service_account(path)
firebase_admin.initialize_app(credentials.Certificate(path))


def attempt(case, message):
    try:
        print(json.dumps({"case": case, "name": messaging.send(message)}))
    except exceptions.FirebaseError as error:
        print(json.dumps({"case": case, "exception": type(error).__name__, "code": error.code,
                          "status": error.http_response.status_code if error.http_response is not None else None}))


notification = messaging.Notification(title="Order shipped", body="Your order is on the way")
attempt("registered", messaging.Message(token="fcm-token-1", notification=notification))
attempt("unregistered", messaging.Message(token=unregistered, notification=notification))
attempt("reserved-key", messaging.Message(token="fcm-token-1", data={"from": "backend"}))
attempt("over-quota", messaging.Message(token="fcm-token-1", notification=notification))
