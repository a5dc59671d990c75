"""Sends one Expo push with exponent_server_sdk, as its README shows: the default host (exp.host)
through HTTPS_PROXY, trusting REQUESTS_CA_BUNDLE.
Usage: expo_proxy_send.py EXPO_TOKEN TITLE BODY
"""
import json
import sys

from exponent_server_sdk import PushClient, PushMessage

ticket = PushClient().publish(PushMessage(to=sys.argv[1], title=sys.argv[2], body=sys.argv[3], data={"n": 1}))
ticket.validate_response()
print(json.dumps({"status": ticket.status, "id": ticket.id}))
