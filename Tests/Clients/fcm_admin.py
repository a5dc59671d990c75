"""Send FCM v1 messages to Shade with firebase-admin, as a backend does, and report the exception
class each reply raises.

Usage: fcm_admin.py BASE_URL UNREGISTERED_TOKEN
firebase-admin always calls https://fcm.googleapis.com with a Google OAuth token. Here the app's
credential is a fixed access token (a credentials.Base, firebase-admin's documented extension point),
and the messaging client's requests session sends what it would send to fcm.googleapis.com to Shade.
"""
import json
import sys

import firebase_admin
import google.oauth2.credentials
import requests
from firebase_admin import credentials, exceptions, messaging

base, unregistered = sys.argv[1], sys.argv[2]


class FixedToken(credentials.Base):
    def get_credential(self):
        return google.oauth2.credentials.Credentials(token="shade-test-token")


class ToShade(requests.adapters.HTTPAdapter):
    def send(self, request, **kwargs):
        request.url = request.url.replace("https://fcm.googleapis.com", base)
        return super().send(request, **kwargs)


app = firebase_admin.initialize_app(FixedToken(), options={"projectId": "shade-demo"})
messaging._get_messaging_service(app)._client.session.mount("https://fcm.googleapis.com", ToShade())


def attempt(case, message):
    try:
        print(json.dumps({"case": case, "name": messaging.send(message, app=app)}))
    except exceptions.FirebaseError as error:
        print(json.dumps({"case": case, "exception": type(error).__name__, "code": error.code,
                          "status": error.http_response.status_code if error.http_response is not None else None}))


notification = messaging.Notification(title="Order shipped", body="Your order is on the way")
attempt("registered", messaging.Message(fid="fcm-token-1", notification=notification))
attempt("unregistered", messaging.Message(fid=unregistered, notification=notification))
attempt("reserved-key", messaging.Message(fid="fcm-token-1", data={"from": "backend"}))
