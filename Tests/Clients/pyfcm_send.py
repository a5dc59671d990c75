"""Sends one FCM message with pyfcm (2.x, FCM v1), as its README shows, with a fake service-account
file: google-auth fetches a token from oauth2.googleapis.com, then pyfcm posts to fcm.googleapis.com;
both through HTTPS_PROXY (requests reads it), trusting REQUESTS_CA_BUNDLE.
Usage: pyfcm_send.py SERVICE_ACCOUNT_FILE DEVICE_TOKEN TITLE BODY
"""
import json
import sys

from pyfcm import FCMNotification

from fake_credentials import write_service_account

path, token, title, body = sys.argv[1:5]
write_service_account(path)
fcm = FCMNotification(service_account_file=path, project_id="shade-demo")
result = fcm.notify(fcm_token=token, notification_title=title, notification_body=body)
print(json.dumps(result))
